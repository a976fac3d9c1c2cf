"""Issue 16: `muster export`: card files a print-on-demand service accepts (one card a page at trim plus 3 mm
bleed, TrimBox and BleedBox set, fronts and backs apart, a 300 dpi PNG of every card) and the map as a picture for
any virtual tabletop; made from the pages that print, the same bytes for the same input."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from conftest import SCENARIOS
from PIL import Image
from pypdf import PdfReader

from generator.build import choose_seed, load
from generator.cards import BLEED, CARD_SIZES
from generator.systems import get

MM = 72 / 25.4  # PDF points a millimetre


def _mm(value) -> float:
    return float(value) / MM


def _box(box) -> tuple[float, float]:
    """A PDF box's width and height in mm."""
    return _mm(box.right) - _mm(box.left), _mm(box.top) - _mm(box.bottom)


@pytest.fixture(scope="module")
def bridge_pod(tmp_path_factory):
    """bridge.yaml exported for print on demand on poker cards."""
    from generator.cli import main

    out = tmp_path_factory.mktemp("pod")
    assert main(["export", str(SCENARIOS / "bridge.yaml"), "--print-on-demand", "--out", str(out)]) == 0
    return out / "bridge"


def test_print_on_demand_pages_are_the_card_plus_bleed_with_trim_and_bleed_boxes(bridge_pod):
    """Read back: every page is the card plus 3 mm bleed all round (within 0.1 mm), its TrimBox the card and its
    BleedBox the bleed's edge; fronts and backs have one page a card, as many as the cards PDF prints fronts."""
    card_w, card_h = CARD_SIZES["poker"]
    fronts = PdfReader(bridge_pod / "print-on-demand" / "bridge-fronts.pdf")
    backs = PdfReader(bridge_pod / "print-on-demand" / "bridge-backs.pdf")
    assert len(fronts.pages) == len(backs.pages) == _front_count("bridge") > 0
    for page in list(fronts.pages) + list(backs.pages):
        assert _box(page.mediabox) == pytest.approx((card_w + 2 * BLEED, card_h + 2 * BLEED), abs=0.1)
        assert _box(page.trimbox) == pytest.approx((card_w, card_h), abs=0.1)
        assert _box(page.bleedbox) == pytest.approx((card_w + 2 * BLEED, card_h + 2 * BLEED), abs=0.1)
        # the trim sits 3 mm in from every edge of the page
        assert _mm(page.trimbox.left) - _mm(page.mediabox.left) == pytest.approx(BLEED, abs=0.1)
        assert _mm(page.mediabox.top) - _mm(page.trimbox.top) == pytest.approx(BLEED, abs=0.1)
    # PDF/X-4, as WeasyPrint writes it: the file says it is for print exchange, and (a new user's trial: it had
    # none) names the colour its numbers mean, an sRGB output intent
    assert fronts.metadata.get("/Trapped") == "/False"
    assert b"GTS_PDFX" in (bridge_pod / "print-on-demand" / "bridge-fronts.pdf").read_bytes()
    for document in (fronts, backs):
        intents = document.trailer["/Root"]["/OutputIntents"]
        assert [intent.get_object()["/S"] for intent in intents] == ["/GTS_PDFX"]
        assert "RGB" in str(intents[0].get_object()["/OutputConditionIdentifier"])


def _front_count(name: str) -> int:
    """How many card fronts the scenario's cards PDF prints."""
    scenario = load(SCENARIOS / f"{name}.yaml")
    system = scenario.system
    return len(system.cards(system.prepare(scenario, choose_seed(scenario, None)), "poker"))


def test_each_card_png_is_300_dpi_with_its_bleed_and_shows_its_pdf_page(bridge_pod):
    """A PNG per card, named in deck order, 300 dpi with its bleed: the same size as the page at 300 dpi and the
    same picture as the fronts PDF's page rendered there; the back's PNG is the backs PDF's first page."""
    folder = bridge_pod / "print-on-demand"
    pngs = sorted(folder.glob("bridge-card-*.png"))
    fronts = pdfium.PdfDocument(folder / "bridge-fronts.pdf")
    assert len(pngs) == len(fronts)
    card_w, card_h = CARD_SIZES["poker"]
    size = (round((card_w + 2 * BLEED) / 25.4 * 300), round((card_h + 2 * BLEED) / 25.4 * 300))
    for index, png in enumerate(pngs):
        assert png.name == f"bridge-card-{index + 1:02d}.png"
        with Image.open(png) as opened:
            image = opened.copy()
            dpi = opened.info["dpi"]
        assert dpi == pytest.approx((300, 300), abs=0.05)  # a PNG keeps pixels a metre
        assert image.size == pytest.approx(size, abs=1)
        page = fronts[index].render(scale=300 / 72).to_pil()
        assert image.convert("RGB").tobytes() == page.convert("RGB").tobytes()
    with Image.open(folder / "bridge-back.png") as opened:
        back = opened.copy()
    page = pdfium.PdfDocument(folder / "bridge-backs.pdf")[0].render(scale=300 / 72).to_pil()
    assert back.convert("RGB").tobytes() == page.convert("RGB").tobytes()


@pytest.mark.parametrize("size", sorted(get("fireteam-tomorrow").card_sizes))
def test_print_on_demand_takes_every_card_size_and_gives_the_same_bytes_twice(size, tmp_path, muster):
    """--cards mini and tarot as well as poker, each page its card plus bleed; two exports of one input are the
    same bytes, file for file."""
    first, second = tmp_path / "one", tmp_path / "two"
    for out in (first, second):
        result = muster("export", SCENARIOS / "relay-station.yaml", "--print-on-demand", "--cards", size, "--out", out)
        assert result.code == 0, result.err
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    for name in files:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    card_w, card_h = CARD_SIZES[size]
    page = PdfReader(first / "relay-station" / "print-on-demand" / "relay-station-fronts.pdf").pages[0]
    assert _box(page.trimbox) == pytest.approx((card_w, card_h), abs=0.1)


def _png(path) -> Image.Image:
    return Image.open(io.BytesIO(path.read_bytes())).convert("RGB")


@pytest.mark.parametrize(
    "name, dpi, size",
    [
        ("bridge", None, (7200, 4800)),  # 72 x 48 inches at 100 pixels an inch
        ("bridge", "20", (1440, 960)),
        ("hill-112", None, (1200, 1000)),  # 12 x 10 squares at 100 pixels a square
        ("warspike-hold-the-ford", "50", (round(120 / 2.54 * 50), round(90 / 2.54 * 50))),  # a table in cm
    ],
)
def test_the_map_png_is_the_table_alone_at_its_resolution(name, dpi, size, tmp_path, muster):
    """--map-png: the table alone, so many pixels an inch (default 100) or a grid square, its top-left corner the
    table's: no margin, scale or legend."""
    args = ["export", SCENARIOS / f"{name}.yaml", "--map-png", "--out", tmp_path] + (["--dpi", dpi] if dpi else [])
    result = muster(*args)
    assert result.code == 0, result.err
    with Image.open(tmp_path / name / f"{name}-map.png") as image:
        assert image.size == size
        assert image.info["dpi"] == pytest.approx((int(dpi or 100),) * 2, abs=0.05)


def test_the_map_png_puts_each_place_where_the_table_has_it(tmp_path, muster):
    """The bridge's River Kessel runs down x = 36 inches: at 20 pixels an inch its blue is at pixel 730 across,
    30 inches down; the table's own ground 2 inches in from its corner; no unit's token (the players' own pieces
    stand on a virtual table)."""
    assert muster("export", SCENARIOS / "bridge.yaml", "--map-png", "--dpi", "20", "--out", tmp_path).code == 0
    image = _png(tmp_path / "bridge" / "bridge-map.png")
    red, green, blue = image.getpixel((725, 600))
    assert blue > red + 40 and blue > green, (red, green, blue)  # the river's blue
    assert image.getpixel((40 * 20, 30 * 20 + 40)) == (0xF7, 0xF5, 0xEE)  # bare table east of the river


@pytest.mark.parametrize(
    "args, code, said",
    [
        ([], 2, "say what to export"),
        (["--map-png", "--dpi", "5"], 2, "from 10 to 600"),
        (["--print-on-demand", "--dpi", "50"], 2, "give it with --map-png"),
        (["--map-png", "--dpi", "600"], 2, "give --dpi 152 or less"),
        (["--tts"], 2, "unrecognized arguments: --tts"),
    ],
)
def test_a_wrong_export_command_is_told_what_to_give(args, code, said, tmp_path, muster):
    result = muster("export", SCENARIOS / "bridge.yaml", *args, "--out", tmp_path)
    assert result.code == code, result.err
    assert said in result.err
    assert "Traceback" not in result.err
    assert not any(tmp_path.rglob("*.png")) and not any(tmp_path.rglob("*.pdf"))


def test_a_scenario_with_problems_or_an_unwritable_folder_leaves_nothing_written(tmp_path, muster):
    bad = tmp_path / "bad.yaml"
    bad.write_text((SCENARIOS / "bridge.yaml").read_text().replace("at: [22, 43]", "at: [80, 43]"))
    result = muster("export", bad, "--print-on-demand", "--map-png", "--out", tmp_path / "out")
    assert result.code == 1
    assert "bad.yaml:" in result.err and "past the east edge" in result.err and "nothing was written" in result.err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.*"))
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the output folder would go")
    result = muster("export", SCENARIOS / "bridge.yaml", "--map-png", "--out", blocked)
    assert result.code == 1
    assert "cannot make the folder" in result.err and "Traceback" not in result.err


def test_a_grid_maps_picture_names_its_squares_where_its_margin_of_coordinates_was():
    """A print-shop reader of hill-112-map.png: the grid had no row or column labels, and the cards place units
    by square ("C7"). Without its margin, each square's name is written in its corner."""
    scenario = load(SCENARIOS / "hill-112.yaml")
    board = scenario.system.board(scenario.system.prepare(scenario, 0))
    svg = str(board.svg)
    assert ">A1<" in svg and ">L10<" in svg and ">C7<" in svg
    assert (board.width_in, board.height_in, board.per) == (12, 10, "a grid square")


def test_an_export_again_removes_its_own_old_card_pictures_and_nothing_else(tmp_path, muster):
    """A new user's trial: exporting again deleted every PNG in print-on-demand/ it had not made, the club's
    own logo among them. It removes only this scenario's card pictures a smaller deck no longer has."""
    out = tmp_path / "out"
    assert muster("export", SCENARIOS / "bridge.yaml", "--print-on-demand", "--out", out).code == 0
    folder = out / "bridge" / "print-on-demand"
    for keep in ("club logo.png", "other-card-01.png"):
        (folder / keep).write_bytes(b"not ours")
    (folder / "bridge-card-99.png").write_bytes(b"an old card")
    assert muster("export", SCENARIOS / "bridge.yaml", "--print-on-demand", "--out", out).code == 0
    assert (folder / "club logo.png").exists() and (folder / "other-card-01.png").exists()
    assert not (folder / "bridge-card-99.png").exists() and (folder / "bridge-card-01.png").exists()


def test_a_write_that_fails_leaves_no_folder_behind(tmp_path, muster):
    """A new user's trial: with NAME-map.png a folder in the way, the export failed (exit 1) but left an empty
    print-on-demand/ behind, against "nothing is written"."""
    (tmp_path / "bridge" / "bridge-map.png").mkdir(parents=True)
    result = muster(
        "export", SCENARIOS / "bridge.yaml", "--print-on-demand", "--map-png", "--dpi", "10", "--out", tmp_path
    )
    assert result.code == 1 and "bridge-map.png" in result.err
    assert not (tmp_path / "bridge" / "print-on-demand").exists()


def test_the_most_dpi_offered_fits_within_the_bound_once_rounded():
    """A code review: --dpi 509 was offered for a 12 x 166 cm table, and its picture, each side rounded to whole
    pixels, was over 80 million pixels."""
    from generator.export import MOST_PIXELS, most_dpi

    for width_cm, depth_cm in ((12, 166), (480, 480), (120, 90), (13, 479)):
        width, depth = width_cm / 2.54, depth_cm / 2.54
        dpi = most_dpi(width, depth)
        assert (
            round(width * dpi) * round(depth * dpi) <= MOST_PIXELS < round(width * (dpi + 1)) * round(depth * (dpi + 1))
        ), (width_cm, depth_cm, dpi)
