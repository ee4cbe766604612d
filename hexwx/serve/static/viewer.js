// hexwx viewer: draws /api/map, asks the JSON API, shows the answers.  Plain JS, no build step.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const BADGE_DY = 15;              // path badges sit this far below a hex centre
  const LV_WORDS = ["lv", "fog", "mist", "rain", "snow", "dust", "weather", "camouflage", "night"];
  const S = {                     // the page's state
    map: null, byName: {}, src: null, tgt: null, tgtFixed: false, lastHover: null,
    pending: {}, view: { x: 0, y: 0, k: 1 }, unitSel: null, weatherDirty: false,
  };

  function el(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function clear(id) { const g = $(id); while (g.firstChild) g.removeChild(g.firstChild); return g; }
  function showError(msg) { $("error").textContent = msg || ""; }

  // -- fetching: one request per kind in flight, the newest wins ------------------------------
  async function api(kind, params) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) {
      if (Array.isArray(v)) v.forEach((x) => q.append(k, x));
      else if (v !== null && v !== undefined && v !== "") q.append(k, v);
    }
    const ticket = (S.pending[kind] = (S.pending[kind] || 0) + 1);
    const r = await fetch(`/api/${kind}?${q}`);
    const body = await r.json();
    if (ticket !== S.pending[kind]) return null;       // a newer question was asked meanwhile
    if (!r.ok) { showError(body.error); return null; }
    showError("");
    return body;
  }

  // -- geometry --------------------------------------------------------------------------------
  function corners(h) {
    const s = S.map.hex.side, hh = S.map.hex.height / 2;
    return [[h.x - s / 2, h.y - hh], [h.x + s / 2, h.y - hh], [h.x + s, h.y],
            [h.x + s / 2, h.y + hh], [h.x - s / 2, h.y + hh], [h.x - s, h.y]];
  }
  const pts = (cs) => cs.map((p) => p[0].toFixed(1) + "," + p[1].toFixed(1)).join(" ");
  function applyView() {
    const v = S.view;
    $("viewport").setAttribute("transform", `translate(${v.x},${v.y}) scale(${v.k})`);
  }
  function fit() { place(0); }
  // the first view of a hex map: the boards at their own scale (a hex id as large as on the
  // board art) where the whole map would be smaller, centred on the map; "fit" shows it all
  const READABLE = 1.0;
  function home() { place(S.map.kind === "table" ? 0 : READABLE); }
  function place(atLeast) {
    const r = $("map").getBoundingClientRect();
    const W = S.map.width;
    const H = S.map.kind === "table" ? S.map.depth : S.map.height;
    const k = Math.max(Math.min(r.width / W, r.height / H) * 0.98, atLeast);
    S.view = { k, x: (r.width - W * k) / 2, y: (r.height - H * k) / 2 };
    applyView();
  }
  function zoomAt(cx, cy, f) {
    const v = S.view, k = Math.max(0.05, Math.min(40, v.k * f));
    v.x = cx - (cx - v.x) * (k / v.k); v.y = cy - (cy - v.y) * (k / v.k); v.k = k;
    applyView();
  }
  function setupPanZoom() {
    const svg = $("map");
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const r = svg.getBoundingClientRect();
      zoomAt(e.clientX - r.left, e.clientY - r.top, e.deltaY < 0 ? 1.2 : 1 / 1.2);
    }, { passive: false });
    let drag = null;
    svg.addEventListener("mousedown", (e) => { drag = { x: e.clientX, y: e.clientY, vx: S.view.x, vy: S.view.y, moved: false }; });
    window.addEventListener("mousemove", (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
      if (drag.moved) { S.view.x = drag.vx + dx; S.view.y = drag.vy + dy; applyView(); }
    });
    window.addEventListener("mouseup", () => { S.dragged = drag && drag.moved; drag = null; });
    $("zoom-in").onclick = () => { const r = svg.getBoundingClientRect(); zoomAt(r.width / 2, r.height / 2, 1.4); };
    $("zoom-out").onclick = () => { const r = svg.getBoundingClientRect(); zoomAt(r.width / 2, r.height / 2, 1 / 1.4); };
    $("zoom-fit").onclick = fit;
  }

  // -- hex maps --------------------------------------------------------------------------------
  function levelOptions(select, h, chosen) {
    select.innerHTML = "";
    const top = h ? h.levels : 0;
    const add = (v, label) => { const o = document.createElement("option"); o.value = v; o.textContent = label; select.appendChild(o); };
    // each location as the CLI names it ("J4 (hill level 3)", "D4 level 2 (stone building)")
    const place = (i, word) => (h && h.places && h.places[i]) || word;
    add(0, place(0, "ground (0)"));
    for (let i = 1; i <= top; i++) add(i, place(i, `building level ${i}`));
    if (h && h.rooftop) add(top + 1, place(top + 1, `rooftop (${top + 1})`));
    select.value = String(chosen && chosen <= top + (h && h.rooftop ? 1 : 0) ? chosen : 0);
  }

  // a map VASL shows turned round (every board rotated): map pixels -> page, turned
  function onPage(x, y) { return S.map.turned ? [S.map.width - x, S.map.height - y] : [x, y]; }
  function drawHexMap() {
    const m = S.map;
    $("title").textContent = `${m.scenario ? m.scenario + " — " : ""}${m.name} (${m.source})`;
    const img = el("image", { href: m.image.href, x: m.image.x, y: m.image.y, width: m.image.w, height: m.image.h,
                              preserveAspectRatio: "none" }, $("layer-image"));
    if (m.turned) {
      img.setAttribute("transform", `rotate(180 ${m.width / 2} ${m.height / 2})`);
      m.hexes.forEach((h) => { [h.x, h.y] = onPage(h.x, h.y); });   // hexes are symmetric
    }
    // veils and fills stop at the map's edge (edge hexes are half hexes)
    const defs = el("defs", {}, $("map")), cp = el("clipPath", { id: "map-clip" }, defs);
    el("rect", { x: 0, y: 0, width: m.width, height: m.height }, cp);
    ["layer-wx", "layer-fill", "layer-text"].forEach((id) => $(id).setAttribute("clip-path", "url(#map-clip)"));
    const g = $("layer-hexes");
    m.hexes.forEach((h, i) => {
      S.byName[h.name] = h; h.i = i;
      const p = el("polygon", { points: pts(corners(h)), class: "hex", "data-hex": h.name }, g);
      const t = el("title", {}, p);
      t.textContent = `${h.name}: ${h.terrain}, ground level ${h.ground}` +
        (h.levels ? `, ${h.levels} building level(s)` : "") + (h.rooftop ? ", rooftop" : "");
    });
    g.addEventListener("mousemove", (e) => { const n = e.target.getAttribute && e.target.getAttribute("data-hex"); if (n) hover(n); });
    g.addEventListener("click", (e) => {
      if (S.dragged) return;
      const n = e.target.getAttribute && e.target.getAttribute("data-hex");
      if (n) clickHex(n);
    });
    const cls = $("unit-class");
    m.unit_classes.forEach((u) => { const o = document.createElement("option"); o.value = u; o.textContent = u; cls.appendChild(o); });
    buildWeather();
    drawWeather();
    if (m.units.length) drawUnits();
    if (m.counters && m.counters.length) drawMapCounters();
    levelOptions($("src-level"), null, 0); levelOptions($("tgt-level"), null, 0);
    $("src-level").onchange = () => { refreshLos(); refreshOverlays(); };
    $("tgt-level").onchange = refreshLos;
    ["tog-viewshed", "tog-exposure", "exp-level", "exp-from"].forEach((id) => { $(id).onchange = refreshOverlays; });
    ["unit-class", "mf", "avoid"].forEach((id) => { $(id).onchange = refreshMove; });
    document.querySelectorAll("input[name=mode]").forEach((r) => { r.onchange = modeChanged; });
  }

  function hover(name) {
    if (name === S.lastHover) return;
    S.lastHover = name;
    const h = S.byName[name];
    $("hover").textContent = `${h.places ? h.places[0] : name}  ${h.terrain}` +
      (h.levels ? `, ${h.levels} building level(s)` : "");
    $("hover-outline").setAttribute("points", pts(corners(h)));
    if (mode() === "los" && S.src && !S.tgtFixed && name !== S.src) {
      S.tgt = name; $("tgt-name").textContent = name;
      levelOptions($("tgt-level"), h, 0);
      refreshLos();
    }
  }
  const mode = () => document.querySelector("input[name=mode]:checked").value;

  // every panel answers the current selection, whatever the mode: a mode change keeps the
  // selection and asks again; the LOS line is drawn in LOS mode only (the path uses its layer)
  function modeChanged() {
    clear("layer-los");
    if (mode() === "los") { clear("layer-fill"); clear("layer-text"); refreshOverlays(); }
    S.tgtFixed = !!S.tgt;
    if (S.src && S.tgt) refreshLos(); else resetLosText();
    refreshMove();
  }

  function clickHex(name) {
    const h = S.byName[name];
    if (mode() !== "los") {
      if (!S.src || S.tgt) {
        S.src = name; S.tgt = null;
        levelOptions($("src-level"), h, 0); levelOptions($("tgt-level"), null, 0);
      } else {
        S.tgt = name;
        levelOptions($("tgt-level"), h, 0);
      }
      S.tgtFixed = !!S.tgt;
      $("src-name").textContent = S.src || "–"; $("tgt-name").textContent = S.tgt || "–";
      if (S.tgt) refreshLos(); else resetLosText();
      refreshMove(); drawRings(); return;
    }
    if (!S.src || S.tgtFixed) {
      S.src = name; S.tgt = null; S.tgtFixed = false;
      $("src-name").textContent = name; $("tgt-name").textContent = "–";
      levelOptions($("src-level"), h, 0);
      clear("layer-los"); resetLosText();
      refreshOverlays();
    } else {
      S.tgt = name; S.tgtFixed = true;
      $("tgt-name").textContent = name;
      if ($("tgt-level").options.length === 0 || S.lastLevelHex !== name) levelOptions($("tgt-level"), h, 0);
      refreshLos();
    }
    S.lastLevelHex = name;
    drawRings();
  }

  function drawRings() { drawRingsInto(clear("layer-overlay")); }
  function drawRingsInto(g) {
    if (S.src && hexOf(S.src)) el("polygon", { points: pts(corners(hexOf(S.src))), class: "src-ring" }, g);
    if (S.tgt && hexOf(S.tgt)) el("polygon", { points: pts(corners(hexOf(S.tgt))), class: "tgt-ring" }, g);
  }

  // -- weather panel: built from the CLI's own options (every E3 flag, and SSRs when present) --
  function buildWeather() {
    const box = $("weather");
    const skip = new Set(["from_level", "to_level"]);
    (S.map.options.los || []).forEach((o) => {
      if (skip.has(o.name)) return;
      const id = "wx-" + o.name;
      if (o.kind === "switch") {
        const l = document.createElement("label");
        l.title = o.help;
        l.innerHTML = `<input type="checkbox" id="${id}"> ${o.name.replace(/_/g, " ")}`;
        box.appendChild(l);
      } else {
        const d = document.createElement("span");
        d.className = "field"; d.title = o.help;
        let input;
        if (o.name === "ssr") {          // the map's VASL terrain SSRs, several may apply
          if (!S.map.ssrs || !S.map.ssrs.length) return;
          input = `<br><select id="${id}" multiple size="5">${S.map.ssrs.map((c) => `<option>${c}</option>`).join("")}</select>`;
        } else if (o.choices) {
          input = `<select id="${id}"><option value="">–</option>${o.choices.map((c) => `<option>${c}</option>`).join("")}</select>`;
        } else if (o.name === "fog") {
          input = `<select id="${id}"><option value="">none</option>${[-1, 0, 1, 2, 3, 4].map((c) => `<option>${c}</option>`).join("")}</select>`;
        } else {
          input = `<input id="${id}" type="${o.kind === "text" ? "text" : "number"}" placeholder="${o.repeat ? "e.g. C5:SE, D6:N" : ""}">`;
        }
        d.innerHTML = `${o.name.replace(/_/g, " ")} ${input}`;
        box.appendChild(d);
      }
    });
    box.addEventListener("change", () => { S.weatherDirty = true; reanswer(); });
    $("weather-clear").onclick = () => {
      box.querySelectorAll("input,select").forEach((x) => {
        if (x.type === "checkbox") x.checked = false;
        else if (x.multiple) [...x.options].forEach((op) => { op.selected = false; });
        else x.value = "";
      });
      S.weatherDirty = true; reanswer();
    };
    const w = S.map.weather;
    if (w) {
      $("weather-scenario").textContent = "scenario weather: " + w.text;
      for (const [k, v] of Object.entries(w.flags)) {
        const x = $("wx-" + k);
        if (!x) continue;
        if (x.type === "checkbox") x.checked = !!v; else x.value = Array.isArray(v) ? v.join(", ") : v;
      }
    }
  }
  function weatherParams() {
    // a scenario's own weather applies until the panel is changed (as on the command line)
    if (S.map.weather && !S.weatherDirty) return {};
    const out = {};
    (S.map.options.los || []).forEach((o) => {
      const x = $("wx-" + o.name);
      if (!x) return;
      if (o.kind === "switch") { if (x.checked) out[o.name] = "1"; return; }
      if (x.multiple) {
        const sel = [...x.selectedOptions].map((op) => op.value);
        if (sel.length) out[o.name] = sel;
        return;
      }
      const v = x.value.trim();
      if (!v) return;
      out[o.name] = o.repeat ? v.split(/[,\s]+/).filter(Boolean) : v;
    });
    return out;
  }
  function reanswer() { drawWeather(); refreshLos(); refreshOverlays(); refreshMove(); if (S.unitSel) selectUnit(S.unitSel); }

  // the weather on the map, as hexwx render shades it: fog over every hex at or below the fog
  // level (E3 3.31), drifts as white bars on their hexside (3.75)
  const SIDES = { N: 0, NE: 1, SE: 2, S: 3, SW: 4, NW: 5 };
  function drawWeather() {
    const g = clear("layer-wx");
    const w = (S.map.weather && !S.weatherDirty) ? S.map.weather.flags : weatherParams();
    const fog = w.fog === undefined || w.fog === "" ? null : Number(w.fog);
    if (fog !== null && !Number.isNaN(fog)) {
      S.map.hexes.forEach((h) => {
        if (h.ground <= fog) el("polygon", { points: pts(corners(h)), class: "fog", "data-hex": h.name }, g);
      });
    }
    const drifts = [].concat(w.drift || []);
    drifts.forEach((d) => {
      const m = /^\s*([^:]+):\s*([A-Za-z]+|[0-5])\s*$/.exec(d);
      if (!m) return;
      const h = S.byName[m[1].toUpperCase()] || S.byName[m[1]];
      let side = /^[0-5]$/.test(m[2]) ? Number(m[2]) : SIDES[m[2].toUpperCase()];
      if (!h || side === undefined) return;
      if (S.map.turned) side = (side + 3) % 6;            // the hexside as the page shows it
      const c = corners(h), a = c[side], b = c[(side + 1) % 6];
      el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "drift-casing" }, g);
      el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "drift", "data-drift": d.trim() }, g);
    });
  }

  // -- line of sight ---------------------------------------------------------------------------
  function resetLosText() {
    S.pending.los = (S.pending.los || 0) + 1;     // an answer still on its way is stale now
    ["los-verdict", "los-explain"].forEach((id) => { $(id).textContent = ""; });
    ["los-drm", "los-hind", "los-lv", "los-range"].forEach((id) => { $(id).textContent = "–"; });
    $("los-explain").dataset.pair = "";
  }
  function endpoint(name) { return name; }
  async function refreshLos() {
    if (!S.src || !S.tgt) { resetLosText(); return; }
    const t0 = performance.now();
    const asked = [S.src, S.tgt];
    const r = await api("los", { from: endpoint(S.src), to: endpoint(S.tgt),
      from_level: $("src-level").value, to_level: $("tgt-level").value, ...weatherParams() });
    if (!r || S.src !== asked[0] || S.tgt !== asked[1]) return;   // the selection moved on
    if (mode() === "los") drawLos(r);
    const v = $("los-verdict");
    v.className = "verdict " + (r.blocked ? "blocked" : "clear");
    v.textContent = r.verdict;
    $("los-drm").textContent = r.blocked ? "blocked" : "+" + r.drm;
    $("los-hind").textContent = r.blocked ? "–" : "+" + r.hindrance;
    $("los-lv").textContent = r.blocked ? "–" : "+" + r.lv;
    $("los-range").textContent = r.range;
    $("los-explain").textContent = explain(r);
    $("los-explain").dataset.pair = `${asked[0]}>${asked[1]}`;   // which question this answers
    $("los-explain").dataset.ms = (performance.now() - t0).toFixed(1);
  }
  function explain(r) {   // LosResult.explain(), as the CLI prints it, and the weather
    return r.explain + (r.weather ? `\nweather: ${describeWeather(r.weather)}` : "");
  }
  function describeWeather(w) { return w.description || w.base || JSON.stringify(w); }
  // a LOS end is a hex name or (scenarios, saves) a unit id standing in its hex
  function hexOf(name) { return S.byName[name] || (S.units && S.units[name] ? S.byName[S.units[name].hex] : null); }
  function centreOf(name) { const h = hexOf(name); return h ? [h.x, h.y] : null; }
  function drawLos(r) {
    const g = clear("layer-los");
    const a = centreOf(r.source), b = centreOf(r.target);
    if (!a || !b) return;
    if (r.blocked && r.blocked_at) {
      const p = onPage(r.blocked_at[0], r.blocked_at[1]);
      el("line", { x1: a[0], y1: a[1], x2: p[0], y2: p[1], class: "los-clear" }, g);
      el("line", { x1: p[0], y1: p[1], x2: b[0], y2: b[1], class: "los-after" }, g);
      el("circle", { cx: p[0], cy: p[1], r: 10, class: "blockpt" }, g);
      el("path", { d: `M${p[0] - 5},${p[1] - 5}L${p[0] + 5},${p[1] + 5}M${p[0] + 5},${p[1] - 5}L${p[0] - 5},${p[1] + 5}`, class: "blockx" }, g);
    } else {
      el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: r.blocked ? "los-after" : "los-clear" }, g);
    }
    if (r.blocked && r.blocked_at) return;   // terrain blocks: the hindrances before it are moot
    const seen = {};
    r.hindrances.forEach((h) => {
      if (!h.hex) return;                               // range-based LV (mist...): text only
      // "E7/F7": a hexspine pair, the badge between the two hexes
      const cs = h.hex.split("/").map(centreOf).filter(Boolean);
      if (!cs.length) return;
      const c = [cs.reduce((a, p) => a + p[0], 0) / cs.length, cs.reduce((a, p) => a + p[1], 0) / cs.length];
      const n = (seen[h.hex] = (seen[h.hex] || 0) + 1) - 1;
      const x = c[0] + (n % 2 ? -16 : 16), y = c[1] + 14 + 20 * Math.floor(n / 2);
      const lv = LV_WORDS.some((w) => (h.kind.toLowerCase().match(/[a-z]+/g) || []).includes(w));
      const b = el("g", { class: "badge", "data-hex": h.hex, "data-drm": h.drm, "data-kind": lv ? "lv" : "hindrance" }, g);
      if (lv) el("circle", { cx: x, cy: y, r: 11, class: "badge-lv" }, b);
      else el("rect", { x: x - 11, y: y - 11, width: 22, height: 22, class: "badge-h" }, b);
      const t = el("text", { x, y }, b); t.textContent = "+" + h.drm;
      const tt = el("title", {}, b); tt.textContent = `+${h.drm} ${h.kind} in ${h.hex} (${h.rule})`;
    });
  }

  // -- overlays: viewshed, exposure ------------------------------------------------------------
  async function refreshOverlays() {
    const fill = clear("layer-fill"), text = clear("layer-text");
    const info = $("overlay-info");
    info.textContent = "";
    const t0 = performance.now();
    if ($("tog-exposure").checked) {
      const r = await api("exposure", { level: $("exp-level").value, from: $("exp-from").value.trim(), ...weatherParams() });
      if (!r) return;
      clear("layer-fill"); clear("layer-text");
      const max = Math.max(1, r.max);
      for (const [name, c] of Object.entries(r.hexes)) {
        const h = S.byName[name];
        if (!h || c === null) continue;
        const a = c === 0 ? 0 : 0.12 + 0.6 * (c / max);
        el("polygon", { points: pts(corners(h)), fill: `rgba(213,94,0,${a.toFixed(3)})`, "data-count": c }, fill);
        const t = el("text", { x: h.x, y: h.y + 14, class: "cell-text" }, text); t.textContent = c;
      }
      info.textContent = `exposure at level ${r.level}: seen by up to ${r.max} of ${r.n_observers} ` +
        `${r.observers ? "observers" : "hexes"} (${r.weather}); ${(performance.now() - t0).toFixed(0)} ms`;
      return;
    }
    if ($("tog-viewshed").checked && S.src) {
      const r = await api("viewshed", { from: S.src, from_level: $("src-level").value, ...weatherParams() });
      if (!r) return;
      clear("layer-fill"); clear("layer-text");
      for (const [name, d] of Object.entries(r.hexes)) {
        const h = S.byName[name];
        if (!h) continue;
        if (d === null) el("polygon", { points: pts(corners(h)), fill: "rgba(30,30,30,0.5)", "data-seen": "0" }, fill);
        else if (d > 0) {
          el("polygon", { points: pts(corners(h)), fill: `rgba(230,159,0,${Math.min(0.75, 0.2 + 0.12 * d)})`, "data-seen": "1" }, fill);
          const t = el("text", { x: h.x, y: h.y + 14, class: "cell-text" }, text); t.textContent = "+" + d;
        }
      }
      info.textContent = `viewshed of ${r.source} level ${r.level}: ${r.seen} hexes in LOS (dark: out of LOS, orange: hindered, DRM shown); ${(performance.now() - t0).toFixed(0)} ms`;
    }
  }

  // -- path and reach --------------------------------------------------------------------------
  async function refreshMove() {
    const md = mode();
    if (md === "los") { $("move-explain").textContent = ""; return; }
    const g = clear("layer-los");
    const common = { unit: $("unit-class").value, ...weatherParams() };
    if (md === "reach" && S.src) {
      const r = await api("reach", { from: S.src, mf: $("mf").value, ...common });
      if (!r) return;
      const fill = clear("layer-fill"), text = clear("layer-text");
      r.hexes.forEach((x) => {
        const h = S.byName[x.hex];
        el("polygon", { points: pts(corners(h)), fill: "rgba(86,180,233,0.45)", "data-cost": x.cost }, fill);
        const t = el("text", { x: h.x, y: h.y + 14, class: "cell-text" }, text); t.textContent = x.cost;
      });
      $("move-explain").textContent = `reach from ${r.start} for ${r.unit} with ${r.mf} ${r.measure} (${r.weather}): ${r.count} hexes`;
    } else if (md === "path" && S.src && S.tgt) {
      const avoid = $("avoid").value.trim();
      const r = await api("path", { from: S.src, to: S.tgt, avoid_sight_of: avoid, ...common });
      if (!r) return;
      if (!r.found) { $("move-explain").textContent = `no path: ${r.reason}`; return; }
      const cs = r.hexes.map(centreOf);
      el("polyline", { points: pts(cs), class: "path-line" }, g);
      let sum = 0;
      const lines = [`path ${r.hexes.join(" ")} for ${r.unit} (${r.weather})`];
      r.steps.forEach((s, i) => {
        sum += s.cost || 0;
        const c = cs[i + 1], seen = s.seen_by && s.seen_by.length;
        // below the centre: the hex id (top of the hex) and its centre dot stay readable
        const by = c[1] + BADGE_DY;
        el("circle", { cx: c[0], cy: by, r: 12, class: "path-badge" + (seen ? " path-seen" : ""), "data-step": s.to }, g);
        const t = el("text", { x: c[0], y: by, class: "cell-text" }, g); t.textContent = s.all_mf ? "all" : sum;
        const parts = s.parts.map((p) => `${p.what} ${p.cost} (${p.rule})`).join("; ");
        lines.push(`  ${s.from} -> ${s.to}  ${s.all_mf ? "all" : s.cost} ${r.measure}  ${parts}` +
          (s.seen_by ? (seen ? `  [in sight of ${s.seen_by.join(", ")}]` : "  [out of sight]") : ""));
      });
      lines.push(`total ${r.total === null ? "all " + r.measure : r.total + " " + r.measure}` +
        (r.exposed_steps !== undefined && r.exposed_steps !== null ? `; ${r.exposed_steps} steps in sight` : ""));
      $("move-explain").textContent = lines.join("\n");
    }
  }

  // -- units of scenarios and saves ------------------------------------------------------------
  const SIDE_COLOURS = ["#e0c070", "#8fb4e0", "#c0e090", "#e0a0c0"];
  function sideColour(side) {
    S.sides = S.sides || [];
    if (!S.sides.includes(side)) S.sides.push(side);
    return SIDE_COLOURS[S.sides.indexOf(side) % SIDE_COLOURS.length];
  }
  function clickUnit(u) {
    // a unit is a LOS end like a hex (its level, infantry or not, camouflage: as the CLI's
    // `los --scenario` answers); the first end also shows who sees whom
    if (mode() === "los") {
      if (!S.src || S.tgtFixed) {
        S.src = u.id; S.tgt = null; S.tgtFixed = false;
        $("src-name").textContent = u.id; $("tgt-name").textContent = "–";
        levelOptions($("src-level"), hexOf(u.id), u.level);
        clear("layer-los"); resetLosText();
        selectUnit(u.id);
      } else {
        S.tgt = u.id; S.tgtFixed = true;
        $("tgt-name").textContent = u.id;
        levelOptions($("tgt-level"), hexOf(u.id), u.level);
        refreshLos();
      }
      drawRings();
      return;
    }
    selectUnit(u.id);
  }
  // markers (perimeters, labels: pieces the scenario gives no side) are drawn as small tags,
  // neither listed as units nor LOS ends nor sighted
  function drawMarker(u, g) {
    const h = S.byName[u.hex];
    if (!h) return;
    const t = el("text", { x: h.x, y: h.y + 22, class: "marker", "data-marker": u.id }, g);
    t.textContent = u.id.replace(/-\d+$/, "");
    const tt = el("title", {}, t); tt.textContent = `${u.id} in ${u.hex}: a marker, not a unit`;
  }
  function drawUnits() {
    S.units = {};
    const real = S.map.units.filter((u) => !u.marker);
    real.forEach((u) => { S.units[u.id] = u; });
    const g = clear("layer-units"), list = $("units");
    const markers = S.map.units.filter((u) => u.marker);
    const seenHex = {};
    markers.forEach((u) => { if (!seenHex[u.hex + u.id.replace(/-\d+$/, "")]) { seenHex[u.hex + u.id.replace(/-\d+$/, "")] = 1; drawMarker(u, g); } });
    $("sec-units").hidden = !real.length;
    if (markers.length) $("markers-note").textContent = `${markers.length} marker(s) on the map (no side: not units)`;
    const perHex = {};
    real.forEach((u) => {
      const h = S.byName[u.hex];
      if (!h) return;
      const n = (perHex[u.hex] = (perHex[u.hex] || 0) + 1) - 1;
      const x = h.x - 15 + 6 * n, y = h.y - 22 + 6 * n;
      const r = el("rect", { x, y, width: 30, height: 30, rx: 3, fill: sideColour(u.side), class: "counter", "data-unit": u.id }, g);
      const t = el("title", {}, r); t.textContent = `${u.id} (${u.side}, ${u.kind}) in ${u.hex} level ${u.level}`;
      const l = el("text", { x: x + 15, y: y + 15, class: "counter-label" }, g);
      l.textContent = u.id.slice(0, 4);
      r.addEventListener("click", (e) => { e.stopPropagation(); if (!S.dragged) clickUnit(u); });
      const d = document.createElement("div");
      d.className = "unit"; d.dataset.unit = u.id;
      d.textContent = `${u.id} — ${u.side}, ${u.kind}, ${u.hex}${u.level ? " level " + u.level : ""}${u.concealed ? ", concealed" : ""}`;
      d.onclick = () => selectUnit(u.id);
      list.appendChild(d);
    });
  }
  // -- counters on the map (SMOKE, wrecks, rubble...: docs/counters.md); answers include them --
  const COUNTER_FILL = { smoke: "#cdcdcd", blaze: "#d55e00", vehicle: "#3c3c3c", wreck: "#6e5a46",
    rubble: "#96785a", entrenchment: "#c8aa6e", oba: "#cc79a7", location: "#fafafa" };
  function drawMapCounters() {
    const g = clear("layer-counters"), perHex = {};
    S.map.counters.forEach((c) => {
      const h = S.byName[c.hex];
      if (!h) return;
      const n = (perHex[c.hex] = (perHex[c.hex] || 0) + 1) - 1;
      const x = h.x - 31, y = h.y - 16 + 17 * n;
      const r = el("rect", { x, y, width: 16, height: 16, fill: COUNTER_FILL[c.kind] || "#eee", class: "map-counter", "data-counter": c.name + "@" + c.hex }, g);
      el("title", {}, r).textContent = `${c.name} in ${c.hex}${c.level ? " level " + c.level : ""}: ${c.kind}${c.drm ? " +" + c.drm : ""} (${c.rule})`;
      const l = el("text", { x: x + 8, y: y + 8, class: "map-counter-label" }, g);
      l.textContent = c.kind === "smoke" || c.kind === "blaze" ? c.kind[0].toUpperCase() + c.drm : ({ vehicle: "V", wreck: "W", rubble: "R", entrenchment: "E", oba: "F" })[c.kind] || "L";
    });
  }
  async function selectUnit(id) {
    S.unitSel = id;
    document.querySelectorAll("#units .unit, .counter").forEach((x) => x.classList.toggle("sel", x.dataset.unit === id));
    const r = await api("sight", { unit: id, ...weatherParams() });
    if (!r) return;
    const g = clear("layer-overlay"), a = centreOf(r.hex);
    drawRingsInto(g);
    const lines = [`${r.unit} (${r.side}) in ${r.hex} sees:`];
    r.sees.forEach((s) => {
      const b = centreOf(s.hex);
      el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "sight-line " + (s.blocked ? "blocked" : "clear") }, g);
      lines.push(`  ${s.target} (${s.side}) in ${s.hex}: ` + (s.blocked ? `no — ${s.verdict}` : `yes, DRM +${s.drm}, range ${s.range}`));
    });
    $("sight-explain").textContent = lines.join("\n");
  }

  // -- tabletops -------------------------------------------------------------------------------
  const PIECE_STYLE = {
    wood: ["#6b9a5b", "#3d6b35"], "built-up": ["#b9aea0", "#6c6258"], hill: ["#d8c59a", "#9c7f45"],
    water: ["#9cc7e6", "#4f86b0"], rough: ["#c9c08a", "#8d8450"], orchard: ["#a8cf8e", "#5f8a45"],
    road: [null, "#a08a60"], hedge: [null, "#2f6b2a"], wall: [null, "#6d6d6d"],
  };
  function drawTable() {
    const t = S.map;
    $("sec-table").hidden = false;
    $("title").textContent = `${t.name} (${t.rules}, ${t.source}) — ${t.width} × ${t.depth} ${t.unit}`;
    const Y = (y) => t.depth - y;       // table y grows away from the bottom edge
    const tp = (ps) => ps.map((p) => `${p[0]},${Y(p[1])}`).join(" ");
    el("rect", { x: 0, y: 0, width: t.width, height: t.depth, fill: "#c7d6a0", stroke: "#555", "stroke-width": t.width / 600 }, $("layer-image"));
    const g = $("layer-fill");
    t.pieces.filter((p) => p.kind === "hill").concat(t.pieces.filter((p) => p.kind !== "hill")).forEach((p) => {
      const st = PIECE_STYLE[p.kind] || ["#ccc", "#666"];
      const e = p.line ? el("polyline", { points: tp(p.points), fill: "none", stroke: st[1], "stroke-width": t.width / (p.kind === "road" ? 120 : 250),
                                          "stroke-dasharray": p.kind === "hedge" ? `${t.width / 100} ${t.width / 200}` : "" }, g)
                       : el("polygon", { points: tp(p.points), fill: st[0], stroke: st[1], "stroke-width": t.width / 500 }, g);
      const tt = el("title", {}, e); tt.textContent = `${p.id}: ${p.kind}${p.height ? ", height " + p.height : ""}`;
    });
    const ug = $("layer-units");
    t.units.forEach((u) => {
      u.bases.forEach((b) => {
        const r = el("polygon", { points: tp(b), fill: u.colour || sideColour(u.side), class: "base", "data-unit": u.id,
                                  "stroke-width": t.width / 800 }, ug);
        const tt = el("title", {}, r); tt.textContent = `${u.id} (${u.side}, ${u.arm})`;
        r.addEventListener("click", () => pickTableUnit(u.id));
        r.addEventListener("mousemove", () => { $("hover").textContent = `${u.id} (${u.side}, ${u.arm})`; });
      });
      // the id just behind the unit (as the rendered pictures put it), clear of its bases
      const a = u.facing * Math.PI / 180, fx = Math.sin(a), fy = Math.cos(a);
      const back = Math.min(...u.bases.flat().map((p) => (p[0] - u.centre[0]) * fx + (p[1] - u.centre[1]) * fy));
      const off = back - t.width / 90 - Math.abs(fy) * t.width / 160 - Math.abs(fx) * u.id.length * t.width / 220;
      const l = el("text", { x: u.centre[0] + fx * off, y: Y(u.centre[1] + fy * off), class: "counter-label",
                             "dominant-baseline": "middle", style: `font-size:${t.width / 60}px` }, ug);
      l.textContent = u.id;
    });
    (t.officers || []).forEach((o) => {        // Huzzah! officers: a disc at his base's centre
      const c = el("circle", { cx: o.position[0], cy: Y(o.position[1]), r: t.width / 180, class: "officer",
                               fill: o.colour, "stroke-width": t.width / 900 }, ug);
      const tt = el("title", {}, c);
      tt.textContent = `${o.id} (${o.side}, ${o.quality}: command radius ${o.command_radius} ${t.unit})`;
    });
    const turn = $("turn");
    turn.max = t.turns.length;
    turn.oninput = refreshTable;
    $("tog-sights").onchange = refreshTable;
    $("tog-move").onchange = refreshTable;
    S.tableY = Y;
    refreshTable();
  }
  // the first unit clicked is the firer (its sights and movement), a second one the target
  // of "can it shoot" (as `hexwx table --fire A B --turn N`); clicking either again lets it go
  function pickTableUnit(id) {
    if (S.unitSel === id) { S.unitSel = S.unitTgt || null; S.unitTgt = null; }
    else if (S.unitTgt === id) S.unitTgt = null;
    else if (!S.unitSel) S.unitSel = id;
    else S.unitTgt = id;
    refreshTable();
  }
  async function refreshTableFire(turn) {
    const box = $("table-fire"), g = clear("layer-fire");
    box.dataset.turn = ""; box.dataset.pair = "";
    if (!S.unitSel || !S.unitTgt) { box.textContent = S.unitSel ? "click a second unit: can the first shoot at it" : ""; return; }
    const a = S.unitSel, b = S.unitTgt;
    const r = await api("table-fire", { from: a, to: b, turn });
    if (!r || a !== S.unitSel || b !== S.unitTgt || turn !== Number($("turn").value)) return;
    const t = S.map, Y = S.tableY;
    el("line", { x1: r.range_from[0], y1: Y(r.range_from[1]), x2: r.range_to[0], y2: Y(r.range_to[1]),
                 class: "fire-line " + (r.may_fire === true ? "yes" : r.may_fire === false ? "no" : "maybe"),
                 style: `stroke-width:${t.width / 350}px` }, clear("layer-fire"));
    box.textContent = `${r.firer} -> ${r.target} (turn ${turn})\n${r.text}`;
    box.dataset.turn = String(turn); box.dataset.pair = `${a}>${b}`;
    box.dataset.mayFire = String(r.may_fire);
  }
  async function refreshTable() {
    const t = S.map, Y = S.tableY, turn = Number($("turn").value);
    const info = t.turns[turn - 1];
    $("turn-text").textContent = info.text;
    document.querySelectorAll(".base").forEach((x) => {
      x.classList.toggle("sel", x.dataset.unit === S.unitSel);
      x.classList.toggle("tgt", x.dataset.unit === S.unitTgt);
    });
    refreshTableFire(turn);
    const g = clear("layer-los");
    const byId = {};
    t.units.forEach((u) => { byId[u.id] = u; });
    if (S.unitSel && info.visibility !== null) {
      const c = byId[S.unitSel].centre;
      el("circle", { cx: c[0], cy: Y(c[1]), r: info.visibility, fill: "none", stroke: "#333",
                     "stroke-dasharray": `${t.width / 100} ${t.width / 150}`,
                     "stroke-width": t.width / 700 }, g);
    }
    refreshTableMove(turn);
    if (!$("tog-sights").checked) { $("table-explain").textContent = ""; return; }
    $("table-explain").dataset.turn = "";
    const r = await api("sight", { turn, from: S.unitSel || "" });
    if (!r) return;
    const lines = [];
    r.sights.forEach((s) => {
      const a = byId[s.viewer].centre, b = byId[s.target].centre;
      const cls = !s.visible ? "blocked" : s.los === "clear" ? "clear" : "partly";
      const dash = cls === "clear" ? "none" : `${t.width / 120} ${t.width / 160}`;
      el("line", { x1: a[0], y1: Y(a[1]), x2: b[0], y2: Y(b[1]), class: "sight-line " + cls,
                   style: `stroke-width:${t.width / 400}px;stroke-dasharray:${dash}` }, g);
      lines.push(`${s.viewer} -> ${s.target}: ${s.visible ? "sees" : "does not see"} (${s.los}); ${s.reason}${s.rule ? " [" + s.rule + "]" : ""}`);
    });
    $("table-explain").textContent = lines.join("\n");
    $("table-explain").dataset.turn = String(turn);          // which question this answers
    $("table-explain").dataset.from = S.unitSel || "";
  }

  // the selected unit's allowance this turn (as `hexwx table --move UNIT --turn N`) and where
  // its bases may get (the reach outline: round water, terrain on the way not counted)
  async function refreshTableMove(turn) {
    const t = S.map, Y = S.tableY, box = $("move-allow"), g = clear("layer-overlay");
    box.dataset.turn = ""; box.dataset.unit = "";
    if (!$("tog-move").checked) { box.textContent = ""; return; }
    if (!S.unitSel) { box.textContent = "click a unit for its movement this turn"; return; }
    const unit = S.unitSel;
    const r = await api("table-move", { unit, turn, outline: 1 });
    if (!r || unit !== S.unitSel || turn !== Number($("turn").value)) return;
    clear("layer-overlay");
    const d = r.reach.polygons.map((rings) => rings.map((ring) =>
      "M" + ring.map((p) => `${p[0]},${Y(p[1])}`).join("L") + "Z").join("")).join("");
    const e = el("path", { d, class: "reach", "fill-rule": "evenodd", "stroke-width": t.width / 500,
                           "stroke-dasharray": `${t.width / 150} ${t.width / 250}` }, g);
    const tt = el("title", {}, e); tt.textContent = `${unit}: reach this turn (${r.reach.reading})`;
    const u = t.unit, f = (v) => (v === null ? "–" : `${Math.round(v * 1000) / 1000} ${u}`);
    const w = r.weather_report;
    const lines = [
      `${r.unit_id} on turn ${w.turn}: ${w.weather}${w.ground !== "normal" ? ", ground " + w.ground : ""}`,
      `base move ${f(r.base_move)} (${r.source})`,
      `weather x${r.weather_multiplier}, terrain ${r.terrain} x${r.terrain_factor}` +
        (r.terrain_pieces.length ? ` (${r.terrain_pieces.join(", ")})` : "") + ` -> net x${r.net_factor}`,
      `allowance: ${f(r.allowance)}` + (r.retire !== null ? ` (retire ${f(r.retire)})` : ""),
      ...r.notes.map((n) => `  - ${n}`),
      `blue outline: ${r.reach.reading}`,
    ];
    box.textContent = lines.join("\n");
    box.dataset.turn = String(w.turn); box.dataset.unit = r.unit_id;
    box.dataset.allowance = String(r.allowance);
  }

  // -- start -----------------------------------------------------------------------------------
  async function start() {
    setupPanZoom();
    const r = await fetch("/api/map");
    S.map = await r.json();
    if (!r.ok) { showError(S.map.error); return; }
    if (S.map.kind === "table") {
      document.querySelectorAll(".hexonly").forEach((x) => { x.hidden = true; });
      drawTable();
    } else {
      drawHexMap();
    }
    home();
    window.addEventListener("resize", home);
    document.body.dataset.ready = "1";
  }
  window.hexwxViewer = S;
  start();
})();
