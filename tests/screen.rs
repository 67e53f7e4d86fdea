//! The window's screen without a window: the text's glyphs are the font's own whole pixels, the
//! help fits every window from 900×560 up without overlap, the side column keeps the panels off
//! the arena, and the overlay's labels neither pile up nor leave the arena. (The same text read
//! back from a real window's screenshot: `window_text_is_the_fonts_own_pixels` in window.rs.)

use steering_arena::app::help;
use steering_arena::app::keys::BINDINGS;
use steering_arena::app::labels::{self, Label};
use steering_arena::app::layout;
use steering_arena::app::legend::{self, Key, Mark};
use steering_arena::app::text;

use glam::Vec2;
use macroquad::math::Rect;

fn font() -> fontdue::Font {
    fontdue::Font::from_bytes(text::FONT, fontdue::FontSettings::default()).expect("the font")
}

/// Every character the window's strings use: printable ASCII.
fn printable() -> impl Iterator<Item = char> {
    (32u8..127).map(char::from)
}

/// Pixels of a glyph that are neither ink nor background (what fades away when drawn dim).
fn partial_pixels(font: &fontdue::Font, c: char, size: f32) -> usize {
    let (_, bitmap) = font.rasterize(c, size);
    bitmap.iter().filter(|&&v| v != 0 && v != 255).count()
}

#[test]
fn at_the_windows_size_every_glyph_is_whole_pixels_with_a_whole_advance() {
    let font = font();
    let size = f32::from(text::SIZE);
    for c in printable() {
        let (m, _) = font.rasterize(c, size);
        assert_eq!(
            partial_pixels(&font, c, size),
            0,
            "{c:?} at {size} px has partly covered pixels"
        );
        assert_eq!(m.advance_width, text::ADVANCE, "{c:?}'s advance");
        let top = m.height as i32 + m.ymin;
        assert!(
            top as f32 <= text::ASCENT + 2.0 && -(m.ymin as f32) <= text::DESCENT,
            "{c:?} reaches {top} px above and {} below its baseline",
            -m.ymin
        );
        for d in printable() {
            assert_eq!(font.horizontal_kern(c, d, size), None, "kerning {c}{d}");
        }
    }
    // The sizes the HUD and help were drawn at break the same glyphs: "l", "i", "p", "o" lose
    // faint columns ("|ine", "Sh:ft", "cohesian").
    for size in [15.0, 17.0, 18.0, 20.0] {
        let broken: usize = "lipo".chars().map(|c| partial_pixels(&font, c, size)).sum();
        assert!(broken >= 8, "at {size} px only {broken} partial pixels");
    }
}

/// A string set the way the window sets it, pixel by pixel: each glyph's bitmap at its place
/// from a whole-pixel origin. The coverage image, `w` × `h`.
fn render(font: &fontdue::Font, s: &str, x: f32, baseline: f32, w: usize, h: usize) -> Vec<u8> {
    let (x, baseline) = text::origin(x, baseline);
    let mut out = vec![0u8; w * h];
    let mut pen = x;
    for c in s.chars() {
        let (m, bitmap) = font.rasterize(c, f32::from(text::SIZE));
        let left = pen + m.xmin as f32;
        let top = baseline - m.height as f32 - m.ymin as f32;
        assert_eq!(left.fract(), 0.0, "{c:?} in {s:?} starts between pixels");
        assert_eq!(top.fract(), 0.0, "{c:?} in {s:?} starts between pixels");
        for row in 0..m.height {
            for col in 0..m.width {
                let (px, py) = (left as usize + col, top as usize + row);
                out[py * w + px] = out[py * w + px].max(bitmap[row * m.width + col]);
            }
        }
        pen += m.advance_width;
    }
    out
}

#[test]
fn known_strings_set_from_any_origin_are_the_fonts_glyphs_side_by_side() {
    let font = font();
    for s in ["line-of-sight", "player", "cohesion", "Shift+4", "ms/tick"] {
        for (x, y) in [(10.0, 20.0), (10.4, 20.6), (3.5, 17.49), (7.77, 31.2)] {
            let (w, h) = (200, 40);
            let image = render(&font, s, x, y, w, h);
            // Each glyph as the font makes it, cut back out of the string's image.
            let (ox, oy) = text::origin(x, y);
            for (i, c) in s.chars().enumerate() {
                let (m, bitmap) = font.rasterize(c, f32::from(text::SIZE));
                let left = (ox + i as f32 * text::ADVANCE) as usize + m.xmin as usize;
                let top = (oy - m.height as f32 - m.ymin as f32) as usize;
                for row in 0..m.height {
                    for col in 0..m.width {
                        assert_eq!(
                            image[(top + row) * w + left + col],
                            bitmap[row * m.width + col],
                            "{c:?} of {s:?} from ({x}, {y}), pixel ({col}, {row})"
                        );
                    }
                }
            }
            let ink = image.iter().filter(|&&v| v == 255).count();
            let faint = image.iter().filter(|&&v| v != 0 && v != 255).count();
            assert!(ink > 8 * s.len(), "{s:?}: {ink} pixels of ink");
            assert_eq!(faint, 0, "{s:?} from ({x}, {y}): {faint} faint pixels");
        }
    }
}

fn key_rows() -> Vec<(&'static str, &'static str)> {
    BINDINGS.iter().map(|b| (b.label, b.help)).collect()
}

fn line_rect(l: &help::Line) -> Rect {
    Rect::new(
        l.x,
        l.baseline - text::ASCENT,
        text::width(&l.text),
        text::ASCENT + text::DESCENT,
    )
}

#[test]
fn the_help_fits_every_window_from_900_by_560_without_overlap_or_a_lost_word() {
    let rows = key_rows();
    for (w, h) in [
        (900.0, 560.0),
        (1024.0, 600.0),
        (1280.0, 800.0),
        (1920.0, 1080.0),
    ] {
        let pages = help::pages(&rows, w, h);
        assert!(pages.len() <= 2, "{w}x{h}: {} pages of help", pages.len());
        let mut labels = Vec::new();
        let mut words = Vec::new();
        for p in &pages {
            assert!(
                p.panel.x >= 0.0
                    && p.panel.y >= layout::HUD_HEIGHT
                    && p.panel.right() <= w
                    && p.panel.bottom() <= h,
                "{w}x{h}: the help's panel {:?} leaves the window or covers the HUD",
                p.panel
            );
            for (i, a) in p.lines.iter().enumerate() {
                let r = line_rect(a);
                assert!(
                    r.x >= p.panel.x
                        && r.right() <= p.panel.right()
                        && r.y >= p.panel.y
                        && r.bottom() <= p.panel.bottom(),
                    "{w}x{h}: {:?} at {r:?} is cut by the panel {:?}",
                    a.text,
                    p.panel
                );
                for b in &p.lines[i + 1..] {
                    assert!(
                        !r.overlaps(&line_rect(b)),
                        "{w}x{h}: {:?} overlaps {:?}",
                        a.text,
                        b.text
                    );
                }
                if a.label {
                    labels.push(a.text.clone());
                } else {
                    words.extend(a.text.split(' ').map(str::to_string));
                }
            }
        }
        let want: Vec<String> = rows.iter().map(|(l, _)| l.to_string()).collect();
        assert_eq!(
            labels, want,
            "{w}x{h}: every key once, in the table's order"
        );
        let want: Vec<String> = rows
            .iter()
            .flat_map(|(_, t)| t.split(' ').filter(|s| !s.is_empty()))
            .map(str::to_string)
            .collect();
        assert_eq!(words, want, "{w}x{h}: every word of every key's text");
    }
    // A tall window takes the help in one page.
    assert_eq!(help::pages(&rows, 1280.0, 800.0).len(), 1);
}

#[test]
fn the_side_column_never_covers_the_arena() {
    for (w, h) in [(900.0, 560.0), (1280.0, 800.0), (400.0, 300.0)] {
        for bar in [false, true] {
            let l = layout::split(w, h, bar, true);
            let c = l.column.expect("a column was asked for");
            assert!(
                c.x >= l.arena.right() && c.right() <= w && c.w >= 100.0,
                "{w}x{h}: column {c:?}, arena {:?}",
                l.arena
            );
            assert!(l.arena.w >= w * 0.6 - 1.0, "{w}x{h}: arena {:?}", l.arena);
            let top = if bar {
                layout::BAR_TOP + layout::BAR_HEIGHT
            } else {
                layout::HUD_HEIGHT
            };
            assert!(l.arena.y >= top, "{w}x{h}: the arena under the bars");
        }
        let l = layout::split(w, h, false, false);
        assert!(l.column.is_none() && l.arena.w == w);
    }
}

#[test]
fn a_legend_too_tall_for_the_column_shows_the_rows_that_fit_and_counts_the_rest() {
    // Mode 0's overlay at 900×560: 17 keys (two of them wrapping) below the kinds' box, in the
    // 290 px the column has left.
    let mut keys: Vec<Key> = (0..15)
        .map(|i| {
            Key::new(
                macroquad::color::WHITE,
                Mark::Line,
                &format!("quantity {i}"),
            )
        })
        .collect();
    let long = "steering force; wall normal at a hit; and one more name to wrap";
    keys.insert(5, Key::new(macroquad::color::RED, Mark::Line, long));
    keys.insert(9, Key::new(macroquad::color::BLUE, Mark::Dot, long));
    let column = layout::split(900.0, 560.0, false, true)
        .column
        .expect("a column");
    let width = column.w - 2.0 * layout::GAP;
    let full = legend::height(&keys, width);
    let wraps: usize = keys
        .iter()
        .map(|k| text::wrap(&k.name, width - 54.0).len())
        .sum();
    assert!(wraps >= 19, "the two long names wrap: {wraps} lines");
    // All of it where it fits.
    assert_eq!(layout::within(full + 40.0, full, legend::LEAST), Some(full));
    assert_eq!(legend::shown(&keys, width, full), 17);
    // 290 px: the room less a line kept for a later panel's note; the rows whose lines fit.
    let h = layout::within(290.0, full, legend::LEAST).expect("room for part of it");
    assert_eq!(h, 290.0 - text::LINE - layout::GAP);
    let lines_room = ((h - 12.0) / text::LINE).floor() as usize;
    let n = legend::shown(&keys, width, h);
    let used: usize = keys[..n]
        .iter()
        .map(|k| text::wrap(&k.name, width - 54.0).len())
        .sum();
    assert!((10..17).contains(&n), "{n} of 17 shown in {h} px");
    assert!(
        used + 2 <= lines_room,
        "{used} lines and title and count in {lines_room}"
    );
    let next = text::wrap(&keys[n].name, width - 54.0).len();
    assert!(
        used + next + 2 > lines_room,
        "row {n} would have fitted too"
    );
    // Too little room for the title, three rows and the count: the note instead.
    assert_eq!(layout::within(legend::LEAST, full, legend::LEAST), None);
    assert_eq!(legend::shown(&keys, width, legend::LEAST), 3);
}

#[test]
fn thirty_labels_on_one_spot_are_cut_to_those_that_fit_none_over_another_or_the_player() {
    let bounds = Rect::new(0.0, 52.0, 970.0, 580.0);
    let player = (Vec2::new(480.0, 400.0), 12.0);
    // Thirty agents in a clump beside the player, and some at the arena's edges.
    let mut wanted: Vec<Label> = (0..30)
        .map(|i| Label {
            lines: vec![("blocked".to_string(), macroquad::color::WHITE)],
            at: Vec2::new(500.0 + (i % 6) as f32 * 4.0, 410.0 + (i / 6) as f32 * 4.0),
        })
        .collect();
    for at in [
        Vec2::new(2.0, 54.0),
        Vec2::new(968.0, 630.0),
        Vec2::new(969.0, 60.0),
    ] {
        wanted.push(Label {
            lines: vec![("Tc 1.25s".to_string(), macroquad::color::WHITE)],
            at,
        });
    }
    let placed = labels::place(&mut wanted, bounds, player);
    assert!(
        (4..=labels::MOST).contains(&placed.len()),
        "{} labels placed",
        placed.len()
    );
    let rects: Vec<Rect> = placed
        .iter()
        .map(|(l, p)| Rect::new(p.x, p.y, text::width(&l.lines[0].0), text::LINE))
        .collect();
    let edge = rects
        .iter()
        .filter(|r| r.x < 100.0 || r.right() > 870.0)
        .count();
    assert!(
        edge >= 2,
        "the labels at the edges were left out: {rects:?}"
    );
    for (i, r) in rects.iter().enumerate() {
        assert!(
            r.x >= bounds.x
                && r.right() <= bounds.right()
                && r.y >= bounds.y
                && r.bottom() <= bounds.bottom(),
            "{r:?} leaves the arena {bounds:?}"
        );
        let (p, radius) = player;
        let body = Rect::new(p.x - radius, p.y - radius, 2.0 * radius, 2.0 * radius);
        assert!(!r.overlaps(&body), "{r:?} covers the player");
        for s in &rects[i + 1..] {
            assert!(!r.overlaps(s), "{r:?} overlaps {s:?}");
        }
    }
}

#[test]
fn every_text_in_the_window_goes_through_the_text_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("src/app") {
        let path = entry.expect("a file").path();
        if path.file_name().is_some_and(|n| n == "text.rs") {
            continue;
        }
        let source = std::fs::read_to_string(&path).expect("a source file");
        for call in ["draw_text", "measure_text", "draw_multiline_text"] {
            assert!(
                !source.contains(call),
                "{} calls macroquad's {call}: its sizes and positions break the font's glyphs; \
                 use app::text",
                path.display()
            );
        }
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} files in src/app");
}
