//! The HTML viewer in a real browser: headless Chromium driven through ChromeDriver's
//! WebDriver interface. Opens a position by its fragment, steps with the arrow keys and the
//! fragment, and checks that the map changes, the highlighted move follows and the console
//! shows no error. Skipped (and says so) where `chromium` or `chromedriver` is missing.

use std::io::Write as _;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const ARROW_RIGHT: &str = "\u{E014}";
const ARROW_LEFT: &str = "\u{E012}";

fn installed(names: &[&str]) -> Option<PathBuf> {
    names.iter().find_map(|name| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(name))
                .find(|p| p.is_file())
        })
    })
}

/// A ChromeDriver process, ended when dropped.
struct Driver {
    child: Child,
    base: String,
    agent: ureq::Agent,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    fn start(chromedriver: &Path) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let base = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        while agent.get(&format!("{base}/status")).call().is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        Driver { child, base, agent }
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let mut response = match (method, body) {
            ("GET", _) => self.agent.get(&url).call(),
            ("DELETE", _) => self.agent.delete(&url).call(),
            (_, body) => self.agent.post(&url).send_json(body.unwrap_or(json!({}))),
        }
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = response.status();
        let value: Value = response.body_mut().read_json().unwrap();
        assert!(status.is_success(), "{method} {path}: {status} {value}");
        value["value"].clone()
    }
}

struct Session<'d> {
    driver: &'d Driver,
    id: String,
}

impl Session<'_> {
    fn path(&self, rest: &str) -> String {
        format!("/session/{}{rest}", self.id)
    }

    fn go(&self, url: &str) {
        self.driver
            .call("POST", &self.path("/url"), Some(json!({ "url": url })));
    }

    fn script(&self, script: &str) -> Value {
        self.driver.call(
            "POST",
            &self.path("/execute/sync"),
            Some(json!({ "script": script, "args": [] })),
        )
    }

    fn press(&self, key: &str) {
        let actions = json!({ "actions": [{
            "type": "key", "id": "keyboard",
            "actions": [{ "type": "keyDown", "value": key }, { "type": "keyUp", "value": key }]
        }]});
        self.driver
            .call("POST", &self.path("/actions"), Some(actions));
    }

    /// What the page shows: the state, the highlighted moves' action numbers and text, the
    /// tiles and tokens on the map.
    fn shown(&self) -> Value {
        self.script(
            "const cur = [...document.querySelectorAll('#notation .mv.cur')];\
             return {\
               state: document.body.getAttribute('data-state'),\
               hash: location.hash,\
               current: cur.map(e => e.getAttribute('data-i')),\
               moves: cur.map(e => e.textContent),\
               tiles: [...document.querySelectorAll('#board [data-tile]')]\
                 .map(e => e.getAttribute('data-hex') + ':' + e.getAttribute('data-tile') + ':' + e.getAttribute('data-rotation')),\
               tokens: document.querySelectorAll('#board [data-corp]').length,\
               note: document.getElementById('note').textContent\
             };",
        )
    }

    /// What the page shows once it shows state `n` (events such as `hashchange` are queued).
    fn shown_at(&self, n: &str) -> Value {
        let started = Instant::now();
        loop {
            let shown = self.shown();
            if shown["state"] == n || started.elapsed() > Duration::from_secs(10) {
                return shown;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn severe_logs(&self) -> Vec<Value> {
        let logs = self.driver.call(
            "POST",
            &self.path("/se/log"),
            Some(json!({ "type": "browser" })),
        );
        logs.as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .filter(|e| e["level"] == "SEVERE")
            .collect()
    }
}

#[test]
fn the_viewer_steps_through_the_game_in_chromium() {
    let (Some(chromium), Some(chromedriver)) = (
        installed(&["chromium", "chromium-browser"]),
        installed(&["chromedriver"]),
    ) else {
        let _ = writeln!(
            std::io::stderr(),
            "skipped: the browser test needs chromium and chromedriver (apt-get install chromium chromium-driver)"
        );
        return;
    };
    let html = crate::draw::viewer_file("browser-1836jr30.html");
    let url = format!("file://{}", html.display());
    let profile = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("chromium-profile");
    let _ = std::fs::remove_dir_all(&profile);
    let driver = Driver::start(&chromedriver);
    let created = driver.call(
        "POST",
        "/session",
        Some(json!({ "capabilities": { "alwaysMatch": {
            "goog:chromeOptions": {
                "binary": chromium.display().to_string(),
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--window-size=1400,1000",
                    format!("--user-data-dir={}", profile.display()),
                ]
            },
            "goog:loggingPrefs": { "browser": "ALL" }
        }}})),
    );
    let session = Session {
        driver: &driver,
        id: created["sessionId"].as_str().unwrap().to_string(),
    };

    session.go(&format!("{url}#0"));
    let start = session.shown();
    assert_eq!(start["state"], "0");
    assert_eq!(
        start["tiles"],
        json!([]),
        "no tile is laid before the first action"
    );
    assert_eq!(start["current"], json!([]), "no move before the first");

    // Action 88 is Nord's first lay (`Nord: lay 8 I5 r5`, per the transcript snapshot).
    session.go(&format!("{url}#88"));
    let at88 = session.shown();
    assert_eq!(at88["state"], "88");
    assert_eq!(at88["current"], json!(["88"]));
    assert_eq!(at88["tiles"], json!(["I5:8:5"]));
    assert!(at88["note"]
        .as_str()
        .unwrap()
        .contains("Nord lays tile 8 on I5"));

    session.press(ARROW_RIGHT);
    session.press(ARROW_RIGHT);
    let at90 = session.shown();
    assert_eq!(at90["state"], "90");
    assert_eq!(at90["hash"], "#90", "the fragment follows the steps");
    assert_eq!(at90["current"], json!(["90"]));
    assert_ne!(at90["moves"], at88["moves"], "the highlight moved");
    session.press(ARROW_LEFT);
    assert_eq!(session.shown()["current"], json!(["89"]));

    // The end of the game, by fragment change on the open page.
    session.script("location.hash = '#445'; return 0;");
    let end = session.shown_at("445");
    assert_eq!(end["state"], "445");
    let (tiles, tokens) = crate::draw::board_after(445);
    assert_eq!(end["tiles"], json!(tiles), "the board at the end");
    assert_eq!(end["tokens"], json!(tokens));
    assert_ne!(end["tiles"], at90["tiles"], "the map changed");
    let (tiles, tokens) = crate::draw::board_after(90);
    assert_eq!(at90["tiles"], json!(tiles));
    assert_eq!(at90["tokens"], json!(tokens));

    // And back to the start with a key.
    session.press("\u{E011}"); // Home
    assert_eq!(session.shown()["tiles"], json!([]));

    let problems = session.severe_logs();
    assert!(problems.is_empty(), "console: {problems:?}");
    driver.call("DELETE", &session.path(""), None);
}
