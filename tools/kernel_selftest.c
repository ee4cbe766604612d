/*
 * A self-test of the LOS kernel as a program of its own, with no Python: built for Windows by
 * tools/check_portable_kernel.sh (MinGW-w64) and run under Wine, it answers every pair of a
 * map whose arrays tools/kernel_selftest.py wrote, and that script compares the answers with
 * the ones the Python package's kernel gives here.
 *
 *     kernel_selftest DIR     reads DIR/meta.txt and DIR/<array>.bin, writes DIR/out_*.bin
 *
 * meta.txt: "n width height maxlen npairs"; the arrays are raw little-endian, C order, the
 * layout of struct KMap (hexwx/_loskernel.c) plus elev [n] int64, fog [3] int64 and the pairs
 * src, tgt [npairs] int64.  Out: the all-pairs matrices (reason int8, hindrance int16, fog LV
 * int16, each [n][n]) and trace_many's answers for the pairs (reason, hindrance, where [3],
 * fog LV).
 */
#define HEXWX_KERNEL_ONLY
#include "../hexwx/_loskernel.c"

#include <stdio.h>
#include <string.h>

static char dir[4096];

static void *load(const char *name, size_t size, size_t count)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.bin", dir, name);
    FILE *f = fopen(path, "rb");
    void *data = calloc(count ? count : 1, size);
    if (!f || !data || fread(data, size, count, f) != count) {
        fprintf(stderr, "kernel_selftest: cannot read %zu items from %s\n", count, path);
        exit(1);
    }
    fclose(f);
    return data;
}

static void save(const char *name, const void *data, size_t size, size_t count)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/out_%s.bin", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, size, count, f) != count) {
        fprintf(stderr, "kernel_selftest: cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 2 || strlen(argv[1]) >= sizeof dir) {
        fprintf(stderr, "usage: kernel_selftest DIR\n");
        return 2;
    }
    strcpy(dir, argv[1]);
    char path[4200];
    snprintf(path, sizeof path, "%s/meta.txt", dir);
    FILE *f = fopen(path, "r");
    long long n, width, height, maxlen, npairs;
    if (!f || fscanf(f, "%lld %lld %lld %lld %lld", &n, &width, &height, &maxlen, &npairs) != 5) {
        fprintf(stderr, "kernel_selftest: cannot read %s\n", path);
        return 1;
    }
    fclose(f);
    const size_t N = (size_t)n, P = (size_t)npairs;
    const KMap map = {
        .n = n, .width = width, .height = height,
        .hex_at = load("hex_at", 4, (size_t)(width * height)),
        .hx = load("hx", 4, N * HX_NCOL),
        .h6 = load("h6", 4, N * 6 * H6_NCOL),
        .ext = load("ext", 4, N * 12),
        .loc = load("loc", 4, N * 12),
        .bbox = load("bbox", 4, N * 4),
        .pix = load("pix", 4, (size_t)(width * height)),
        .ta = load("ta", 4, 256 * TA_NCOL),
        .split = load("split", 8, 256),
        .fast = load("fast", 4, 256),
        .nframes = 0, .frames = NULL, .ox = 0, .oy = 0,
    };
    const i64 *elev = load("elev", 8, N), *fog = load("fog", 8, 3);
    const i64 *src = load("src", 8, P), *tgt = load("tgt", 8, P);

    Buffers s = {
        .xs = malloc(sizeof(int32_t) * (size_t)maxlen), .ys = malloc(sizeof(int32_t) * (size_t)maxlen),
        .hv = malloc(sizeof(i64) * HV_LEN), .hh = malloc(sizeof(i64) * HV_LEN),
        .fl = malloc(sizeof(i64) * HV_LEN), .xy_len = maxlen,
    };
    int8_t *reasons = calloc(N * N, 1);
    int16_t *totals = calloc(N * N, 2), *lv = calloc(N * N, 2);
    if (!s.xs || !s.ys || !s.hv || !s.hh || !s.fl || !reasons || !totals || !lv) {
        fprintf(stderr, "kernel_selftest: out of memory\n");
        return 1;
    }
    const AllPairs all = {
        .m = &map, .n = n, .a0 = 0, .full = 1, .elev = elev,
        .fwd_reason = reasons, .fwd_total = totals, .fog = fog, .fwd_lv = lv, .ntops = 0,
    };
    i64 visited = 0;
    hexwx_all_pairs(&all, &s, 0, n, &visited);
    save("reasons", reasons, 1, N * N);
    save("totals", totals, 2, N * N);
    save("lv", lv, 2, N * N);

    i64 *es = calloc(P ? P : 1, 8), *et = calloc(P ? P : 1, 8);
    int8_t *many_r = calloc(P ? P : 1, 1);
    int16_t *many_t = calloc(P ? P : 1, 2), *many_lv = calloc(P ? P : 1, 2);
    int32_t *where = calloc(P ? 3 * P : 1, 4);
    if (!es || !et || !many_r || !many_t || !many_lv || !where) {
        fprintf(stderr, "kernel_selftest: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < P; i++) {
        es[i] = elev[src[i]];
        et[i] = elev[tgt[i]];
    }
    const TraceMany many = {
        .m = &map, .sources = src, .targets = tgt, .elev_s = es, .elev_t = et,
        .reasons = many_r, .totals = many_t, .where = where, .fog = fog, .lv = many_lv,
    };
    hexwx_trace_many(&many, &s, 0, npairs);
    save("many_reasons", many_r, 1, P);
    save("many_totals", many_t, 2, P);
    save("many_where", where, 4, 3 * P);
    save("many_lv", many_lv, 2, P);
    printf("kernel_selftest: %lld hexes, %lld pixels read, %lld single pairs\n", n,
           (long long)visited, npairs);
    return 0;
}
