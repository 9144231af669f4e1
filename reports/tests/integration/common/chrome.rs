//! Headless Chromium for the page tests: a tab that records console errors, uncaught
//! exceptions, error log entries and every network request, so a test can assert a page
//! is self-contained and runs clean.

use headless_chrome::protocol::cdp::Network;
use headless_chrome::protocol::cdp::types::Event;
use headless_chrome::{Browser, LaunchOptions, Tab};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Debian's chromium, or `NAB_CHROMIUM`.
pub fn chromium() -> PathBuf {
    let p =
        PathBuf::from(std::env::var("NAB_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()));
    assert!(
        p.is_file(),
        "{} not found: install Debian's `chromium` package (apt-get install -y chromium), or set NAB_CHROMIUM",
        p.display()
    );
    p
}

/// `target/nab-artifacts`, where page tests leave screenshots and pages to look at.
pub fn artifacts_dir() -> PathBuf {
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let d = target.join("nab-artifacts");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A browser with one watched tab (the browser lives as long as this does).
pub struct WatchedTab {
    _browser: Browser,
    pub tab: Arc<Tab>,
    pub problems: Arc<Mutex<Vec<String>>>,
    pub requests: Arc<Mutex<Vec<String>>>,
}

impl WatchedTab {
    /// Launches headless Chromium with a window of `size` and starts watching a new tab.
    pub fn open(size: (u32, u32)) -> WatchedTab {
        let browser = Browser::new(
            LaunchOptions::default_builder()
                .path(Some(chromium()))
                .headless(true)
                .sandbox(false) // CI runs as root
                .window_size(Some(size))
                .idle_browser_timeout(Duration::from_secs(120))
                .build()
                .unwrap(),
        )
        .expect("launch chromium");
        let tab = browser.new_tab().unwrap();
        tab.set_default_timeout(Duration::from_secs(30));
        let problems: Arc<Mutex<Vec<String>>> = Arc::default();
        let requests: Arc<Mutex<Vec<String>>> = Arc::default();
        {
            let (problems, requests) = (problems.clone(), requests.clone());
            tab.add_event_listener(Arc::new(move |event: &Event| match event {
                Event::RuntimeConsoleAPICalled(e) => {
                    let p = serde_json::to_value(&e.params).unwrap_or_default();
                    if matches!(p["type"].as_str(), Some("error" | "assert")) {
                        problems
                            .lock()
                            .unwrap()
                            .push(format!("console.{}: {}", p["type"], p["args"]));
                    }
                }
                Event::RuntimeExceptionThrown(e) => {
                    let p = serde_json::to_value(&e.params).unwrap_or_default();
                    problems
                        .lock()
                        .unwrap()
                        .push(format!("uncaught: {}", p["exceptionDetails"]));
                }
                Event::LogEntryAdded(e) => {
                    let p = serde_json::to_value(&e.params).unwrap_or_default();
                    if p["entry"]["level"] == "error" {
                        problems
                            .lock()
                            .unwrap()
                            .push(format!("log: {}", p["entry"]["text"]));
                    }
                }
                Event::NetworkRequestWillBeSent(e) => {
                    requests.lock().unwrap().push(e.params.request.url.clone());
                }
                _ => {}
            }))
            .unwrap();
        }
        tab.enable_runtime().unwrap();
        tab.enable_log().unwrap();
        // Every field of Network.enable is optional; build it from `{}`.
        let enable: Network::Enable = serde_json::from_str("{}").unwrap();
        tab.call_method(enable).unwrap();
        WatchedTab {
            _browser: browser,
            tab,
            problems,
            requests,
        }
    }
}

impl WatchedTab {
    /// [`WatchedTab::open`] showing the page `file`, once its task table has rows.
    pub fn showing(size: (u32, u32), file: &std::path::Path) -> WatchedTab {
        let page = WatchedTab::open(size);
        let url = format!("file://{}", file.canonicalize().unwrap().display());
        page.tab
            .navigate_to(&url)
            .unwrap()
            .wait_until_navigated()
            .unwrap();
        page.tab.wait_for_element("#tasks tbody tr").unwrap();
        page
    }

    /// Evaluates `js` in the page: its value (null when it has none).
    pub fn eval(&self, js: &str) -> serde_json::Value {
        self.tab
            .evaluate(js, false)
            .unwrap()
            .value
            .unwrap_or(serde_json::Value::Null)
    }

    /// A PNG screenshot of the tab as it is, also left in [`artifacts_dir`] as `name`.
    pub fn screenshot(&self, name: &str) -> Vec<u8> {
        use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
        let png = self
            .tab
            .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
            .unwrap();
        assert!(png.starts_with(b"\x89PNG"));
        std::fs::write(artifacts_dir().join(name), &png).unwrap();
        png
    }

    /// The page ran without a console error, an uncaught exception or an error log entry,
    /// and loaded nothing from the network (data: URLs are inline); the Network domain saw
    /// it load `page` itself, so the watch was on.
    pub fn assert_ran_clean_and_offline(&self, page: &str) {
        let problems = self.problems.lock().unwrap().clone();
        assert!(problems.is_empty(), "console errors: {problems:#?}");
        let requests = self.requests.lock().unwrap().clone();
        let external: Vec<&String> = requests
            .iter()
            .filter(|u| !u.starts_with("file://") && !u.starts_with("data:"))
            .collect();
        assert!(external.is_empty(), "network requests: {external:#?}");
        assert!(
            requests.iter().any(|u| u.ends_with(page)),
            "the Network domain saw the page load itself: {requests:?}"
        );
    }
}
