//! The arena as a web page, in a real browser: `web/build.sh` builds the page, the test serves it
//! on the loopback and drives headless Chromium through chromedriver (WebDriver).
//!
//! `page_plays_…` asserts that the canvas fills the window and follows its size, that frames are
//! not one flat colour and change, that `Shift+1` switches to the flock (the page's title names
//! the mode), that the address's settings are read (`?mode=pathfind&seed=7&agents=…`), and that
//! over 20 s of play in three modes, with keys held and pressed, the console shows no JavaScript
//! error and no Rust panic.
//!
//! `#[ignore = "needs chromium and the wasm target"]`: `.ci/run` installs Chromium, its driver,
//! binaryen and the target, and runs it.

mod http;
mod webdriver;

use std::path::PathBuf;
use std::time::{Duration, Instant};
use webdriver::{Browser, SHIFT};

/// WebDriver's codes of a few keys.
const TAB: &str = "\u{E004}";
const CONTROL: &str = "\u{E009}";
const RIGHT: &str = "\u{E014}";
const F12: &str = "\u{E03C}";

/// Build the page with the README's command; the folder it is in.
fn build_page() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let status = std::process::Command::new(root.join("web/build.sh"))
        .status()
        .expect("web/build.sh runs");
    assert!(status.success(), "web/build.sh failed: {status}");
    root.join("web/dist")
}

/// Wait until the title is `title`; panics with the last title seen after `limit`.
fn wait_for_title(browser: &Browser, title: &str, limit: Duration) {
    let started = Instant::now();
    loop {
        let seen = browser.title();
        if seen == title {
            return;
        }
        assert!(
            started.elapsed() < limit,
            "the title stayed \"{seen}\", not \"{title}\", for {limit:?}; console: {:?}",
            browser.console()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A screenshot's pixels (RGBA).
fn pixels(png_bytes: &[u8]) -> Vec<[u8; 4]> {
    let mut decoder = png::Decoder::new(png_bytes);
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().expect("the screenshot is a PNG");
    let mut buffer = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buffer).expect("a PNG frame");
    let step = info.color_type.samples();
    buffer[..info.buffer_size()]
        .chunks(step)
        .map(|p| match step {
            4 => [p[0], p[1], p[2], p[3]],
            3 => [p[0], p[1], p[2], 255],
            _ => [p[0], p[0], p[0], 255],
        })
        .collect()
}

fn colours(picture: &[[u8; 4]]) -> usize {
    let mut seen: Vec<[u8; 4]> = picture.to_vec();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

/// No console line that is an error or a Rust panic (miniquad writes panics to the console).
fn assert_quiet_console(browser: &Browser, when: &str) {
    let bad: Vec<(String, String)> = browser
        .console()
        .into_iter()
        .filter(|(level, message)| {
            level == "SEVERE"
                || ["panicked", "PanicHookInfo", "RuntimeError", "unreachable"]
                    .iter()
                    .any(|w| message.contains(w))
        })
        .collect();
    assert!(bad.is_empty(), "{when}: the console says {bad:?}");
}

/// The canvas's drawing size and the window's inner size.
fn sizes(browser: &Browser) -> (u64, u64, u64, u64) {
    let v = browser.script(
        "const c = document.getElementById('glcanvas'); \
         return [c.width, c.height, window.innerWidth, window.innerHeight];",
    );
    let n = |i: usize| v[i].as_u64().unwrap_or(0);
    (n(0), n(1), n(2), n(3))
}

/// Play for `seconds`: move the player, turn the overlay, the grid, the help and the tuning
/// panel on and off, try to save and to take a screenshot.
fn play(browser: &Browser, seconds: u64) {
    let started = Instant::now();
    let presses: [&[&str]; 8] = [
        &[TAB],
        &["g"],
        &["h"],
        &["h"],
        &["u"],
        &[CONTROL, "s"],
        &[F12],
        &[TAB],
    ];
    let mut i = 0;
    while started.elapsed() < Duration::from_secs(seconds) {
        browser.hold(if i % 2 == 0 { "d" } else { RIGHT }, 400);
        browser.chord(presses[i % presses.len()]);
        i += 1;
        std::thread::sleep(Duration::from_millis(300));
    }
}

#[test]
#[ignore = "needs chromium and the wasm target"]
fn page_plays_the_arena_in_headless_chromium() {
    let root = build_page();
    let port = http::serve(root);
    let browser = Browser::start(1024, 700);
    browser.open(&format!("http://127.0.0.1:{port}/index.html"));
    // The title names the mode from the first frame on.
    wait_for_title(
        &browser,
        "steering-arena: los-chase",
        Duration::from_secs(60),
    );
    assert_eq!(
        browser.script(
            "const c = document.getElementById('glcanvas'); c.focus(); \
             return document.activeElement === c;"
        ),
        serde_json::Value::Bool(true),
        "the canvas takes the keyboard"
    );

    // The canvas fills the window and follows its size.
    let (cw, ch, ww, wh) = sizes(&browser);
    assert!(
        ww > 0 && (cw, ch) == (ww, wh),
        "canvas {cw}x{ch} in a {ww}x{wh} window"
    );
    let (w0, h0) = (ww, wh);
    browser.resize(800, 560);
    std::thread::sleep(Duration::from_millis(500));
    let (cw, ch, ww, wh) = sizes(&browser);
    assert!(
        (ww, wh) != (w0, h0) && (cw, ch) == (ww, wh),
        "after the resize: canvas {cw}x{ch} in a {ww}x{wh} window (was {w0}x{h0})"
    );

    // Frames that are not one flat colour, and that change.
    let first = pixels(&browser.screenshot());
    std::thread::sleep(Duration::from_millis(1000));
    let second = pixels(&browser.screenshot());
    let n = colours(&first);
    assert!(n > 8, "the first frame has {n} colours");
    let changed = first.iter().zip(&second).filter(|(a, b)| a != b).count();
    assert!(
        first.len() == second.len() && changed > 500,
        "{changed} of {} pixels changed in a second",
        first.len()
    );
    assert_quiet_console(&browser, "starting");

    // 20 s of play in three modes: the first bank's chase, the flock by Shift+1, and the
    // pathfinders from the address.
    play(&browser, 7);
    assert_quiet_console(&browser, "playing los-chase");
    browser.chord(&[SHIFT, "1"]);
    wait_for_title(&browser, "steering-arena: flock", Duration::from_secs(10));
    play(&browser, 7);
    assert_quiet_console(&browser, "playing the flock");
    browser.open(&format!(
        "http://127.0.0.1:{port}/index.html?mode=pathfind&seed=7&agents=40"
    ));
    wait_for_title(
        &browser,
        "steering-arena: pathfind",
        Duration::from_secs(60),
    );
    browser.script("document.getElementById('glcanvas').focus(); return 0;");
    play(&browser, 7);
    assert_quiet_console(&browser, "playing pathfind");
    let last = pixels(&browser.screenshot());
    assert!(colours(&last) > 8, "the pathfind frame is flat");
}
