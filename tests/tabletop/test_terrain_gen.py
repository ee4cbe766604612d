"""Random terrain generator (seed 003): sectors, charts row by row, placement, averages."""
from __future__ import annotations

import pytest
from shapely.ops import unary_union

from hexwx.dice import Dice
from hexwx.errors import UsageError
from hexwx.tabletop.terrain_gen import (FOOTPRINTS, GeneratedPiece, footprint, generate_terrain,
                               sector_box)


def test_twelve_sectors_tile_the_six_by_two_and_a_half_foot_table() -> None:
    boxes = [sector_box(s) for s in range(1, 13)]
    for b in boxes:
        minx, miny, maxx, maxy = b.bounds
        assert maxx - minx == pytest.approx(12 * 2.54) and maxy - miny == pytest.approx(15 * 2.54)
    table = unary_union(boxes)
    assert table.area == pytest.approx(sum(b.area for b in boxes))          # no overlaps
    assert table.bounds == pytest.approx((0, 0, 72 * 2.54, 30 * 2.54))   # 6 ft x 2 ft 6 in
    assert sector_box(7).bounds[1] == pytest.approx(15 * 2.54)            # second row


@pytest.mark.parametrize("die, present", [(1, False), (2, False), (3, False),
                                          (4, True), (5, True), (6, True)])
def test_presence_die(die: int, present: bool) -> None:
    faces = [die] + ([3] if present else []) + [1] * 11
    pieces = generate_terrain(Dice.scripted(faces))
    assert [p.sector for p in pieces] == ([1] if present else [])


@pytest.mark.parametrize("die, kind", [(1, "hill"), (2, "water"), (3, "wood"),
                                       (4, "built-up area"), (5, "player A's choice"),
                                       (6, "player B's choice")])
def test_type_die(die: int, kind: str) -> None:
    pieces = generate_terrain(Dice.scripted([1] * 4 + [6, die] + [1] * 7))
    assert [(p.kind, p.sector) for p in pieces] == [(kind, 5)]


def test_player_choices_replace_5_and_6() -> None:
    faces = [4, 5, 4, 6] + [1] * 10
    pieces = generate_terrain(Dice.scripted(faces), choice_a="wood", choice_b="hill")
    assert [p.kind for p in pieces] == ["wood", "hill"]


@pytest.mark.parametrize("kind", sorted(FOOTPRINTS))
def test_every_kind_fits_inside_its_sector_with_a_margin(kind: str) -> None:
    for sector in (1, 6, 7, 12):
        cell = sector_box(sector)
        piece = footprint(kind, (cell.centroid.x, cell.centroid.y))
        assert piece.is_valid and piece.area > 50
        assert cell.buffer(-4).contains(piece)


def test_seeded_generation_is_reproducible_and_logged() -> None:
    dice = Dice(seed=42)
    pieces = generate_terrain(dice)
    again = generate_terrain(Dice(seed=42))
    assert [(p.kind, p.sector) for p in pieces] == [(p.kind, p.sector) for p in again]
    assert len(dice.log) == 12 + len(pieces)
    assert all(isinstance(p, GeneratedPiece) and sector_box(p.sector).contains(p.polygon)
               for p in pieces)
    assert pieces[0].to_json()["polygon"][0] == pieces[0].to_json()["polygon"][-1]


def test_about_six_pieces_on_average() -> None:
    games = 1000
    counts = [len(generate_terrain(Dice(seed=s))) for s in range(games)]
    mean = sum(counts) / games
    assert abs(mean - 6) < 0.25         # 4.5 sd of the mean, sqrt(3)/sqrt(1000) = 0.055


def test_bad_input() -> None:
    with pytest.raises(UsageError, match="choice_a must be one of hill, water, wood, built-up area, got 'moat'"):
        generate_terrain(Dice(seed=1), choice_a="moat")
    with pytest.raises(UsageError, match="sector must be a whole number 1-12, got 13"):
        sector_box(13)
