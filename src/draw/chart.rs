//! Charts over a whole game: every corporation's share price and every player's value after
//! each round, as plain SVG line charts with labelled axes and a legend.

// A replay that fails ends the command; the size of the error does not matter.
#![allow(clippy::result_large_err)]

use crate::engine::Game;
use crate::ids::{CorpId, Money};
use crate::log::GameLog;
use crate::replay::{Replay, ReplayError};

use super::palette::{self, corp_colours};
use super::svg::{Num, Svg, Value};

/// The state at the end of one round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundPoint {
    /// The round (`SR 2`, `OR 3.1`).
    pub round: String,
    /// Processed actions at its end.
    pub index: usize,
    /// Each corporation's share price (none before its par or after it closes).
    pub prices: Vec<Option<Money>>,
    /// Each player's value.
    pub values: Vec<Money>,
}

/// What the charts show: names, colours and the state after every round.
#[derive(Debug, Clone)]
pub struct History {
    /// Corporations: symbol, fill colour, text colour.
    pub corps: Vec<(String, String, String)>,
    /// Players by seat.
    pub players: Vec<String>,
    /// One point per round, in order (the last is the end of the log).
    pub rounds: Vec<RoundPoint>,
}

impl History {
    /// Replays a log and notes the state after each round.
    ///
    /// # Errors
    /// The log cannot be set up or an action is illegal.
    pub fn of(log: &GameLog) -> Result<History, ReplayError> {
        let mut replay = Replay::new(log)?;
        let mut history = History::start(replay.game());
        let mut label = replay.game().round_label();
        while let Some(step) = replay.step() {
            let step = step?;
            let game = replay.game();
            let now = game.round_label();
            if now != label {
                history.note(&label, step.index, game);
                label = now;
            }
        }
        let game = replay.game();
        let last = if game.finished {
            "end".to_string()
        } else {
            label
        };
        history.note(&last, replay.processed(), game);
        Ok(history)
    }

    /// An empty history of a game's corporations and players.
    pub fn start(game: &Game) -> History {
        History {
            corps: (0..game.corps.len())
                .map(|i| {
                    let c = CorpId(i as u8);
                    let (fill, text) = corp_colours(game.title, c);
                    (
                        game.title.corp(c).sym.clone(),
                        fill.to_string(),
                        text.to_string(),
                    )
                })
                .collect(),
            players: game.players.iter().map(|p| p.name.clone()).collect(),
            rounds: Vec::new(),
        }
    }

    /// Notes the state at the end of `round`.
    pub fn note(&mut self, round: &str, index: usize, game: &Game) {
        let prices = (0..game.corps.len())
            .map(|i| {
                let c = CorpId(i as u8);
                if game.corp(c).closed {
                    None
                } else {
                    game.share_price(c)
                }
            })
            .collect();
        let values = game.player_values().into_values().collect();
        self.rounds.push(RoundPoint {
            round: round.to_string(),
            index,
            prices,
            values,
        });
    }
}

/// A series to draw: name, colour, and a value per round (gaps allowed).
struct Series {
    name: String,
    colour: String,
    points: Vec<Option<i64>>,
}

const WIDTH: f64 = 1000.0;
const HEIGHT: f64 = 520.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 150.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 90.0;

/// A "nice" step for an axis spanning `max`: 1, 2 or 5 times a power of ten, about 6 ticks.
fn tick_step(max: i64) -> i64 {
    let raw = (max as f64 / 6.0).max(1.0);
    let power = libm::pow(10.0, libm::floor(libm::log10(raw)));
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * power);
    step as i64
}

fn line_chart(title: &str, y_label: &str, rounds: &[RoundPoint], series: &[Series]) -> String {
    let max = series
        .iter()
        .flat_map(|s| s.points.iter().flatten())
        .copied()
        .max()
        .unwrap_or(0)
        .max(1);
    let step = tick_step(max);
    let top_value = (max + step - 1) / step * step;
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let n = rounds.len().max(1);
    let x_of = |i: usize| {
        if n == 1 {
            LEFT + plot_w / 2.0
        } else {
            LEFT + plot_w * i as f64 / (n - 1) as f64
        }
    };
    let y_of = |v: i64| TOP + plot_h - plot_h * v as f64 / top_value as f64;
    let mut svg = Svg::new();
    svg.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg".into()),
            (
                "viewBox",
                format!("0 0 {} {}", Num(WIDTH), Num(HEIGHT))
                    .as_str()
                    .into(),
            ),
            ("width", WIDTH.into()),
            ("height", HEIGHT.into()),
            ("font-family", palette::FONT.into()),
            ("class", "chart".into()),
        ],
    );
    svg.leaf(
        "rect",
        &[
            ("width", WIDTH.into()),
            ("height", HEIGHT.into()),
            ("fill", "#ffffff".into()),
        ],
    );
    svg.text(
        "text",
        &[
            ("x", LEFT.into()),
            ("y", 30.0.into()),
            ("font-size", 20.0.into()),
            ("font-weight", "bold".into()),
        ],
        title,
    );
    // Grid and y axis.
    let mut v = 0;
    while v <= top_value {
        let y = y_of(v);
        svg.leaf(
            "line",
            &[
                ("x1", LEFT.into()),
                ("x2", (LEFT + plot_w).into()),
                ("y1", y.into()),
                ("y2", y.into()),
                ("stroke", if v == 0 { "#000000" } else { "#dddddd" }.into()),
                ("stroke-width", 1.0.into()),
            ],
        );
        svg.text(
            "text",
            &[
                ("x", (LEFT - 8.0).into()),
                ("y", y.into()),
                ("font-size", 13.0.into()),
                ("text-anchor", "end".into()),
                ("dominant-baseline", "central".into()),
            ],
            &v.to_string(),
        );
        v += step;
    }
    svg.leaf(
        "line",
        &[
            ("x1", LEFT.into()),
            ("x2", LEFT.into()),
            ("y1", TOP.into()),
            ("y2", (TOP + plot_h).into()),
            ("stroke", "#000000".into()),
        ],
    );
    svg.text(
        "text",
        &[
            (
                "transform",
                format!("translate(18 {}) rotate(-90)", Num(TOP + plot_h / 2.0))
                    .as_str()
                    .into(),
            ),
            ("font-size", 14.0.into()),
            ("text-anchor", "middle".into()),
        ],
        y_label,
    );
    // Rounds along x: every label when they fit, else every k-th.
    let every = (n as f64 / 30.0).ceil().max(1.0) as usize;
    for (i, r) in rounds.iter().enumerate() {
        let x = x_of(i);
        svg.leaf(
            "line",
            &[
                ("x1", x.into()),
                ("x2", x.into()),
                ("y1", (TOP + plot_h).into()),
                ("y2", (TOP + plot_h + 5.0).into()),
                ("stroke", "#000000".into()),
            ],
        );
        if i % every == 0 || i + 1 == n {
            svg.text(
                "text",
                &[
                    (
                        "transform",
                        format!(
                            "translate({} {}) rotate(-60)",
                            Num(x + 4.0),
                            Num(TOP + plot_h + 10.0)
                        )
                        .as_str()
                        .into(),
                    ),
                    ("font-size", 11.0.into()),
                    ("text-anchor", "end".into()),
                ],
                &r.round,
            );
        }
    }
    svg.text(
        "text",
        &[
            ("x", (LEFT + plot_w / 2.0).into()),
            ("y", (HEIGHT - 6.0).into()),
            ("font-size", 14.0.into()),
            ("text-anchor", "middle".into()),
        ],
        "after round",
    );
    // Lines: a dark casing under each colour, so pale colours read on white.
    for s in series {
        let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
        for (i, p) in s.points.iter().enumerate() {
            match p {
                Some(v) => runs.last_mut().map_or((), |r| r.push((x_of(i), y_of(*v)))),
                None => {
                    if runs.last().is_some_and(|r| !r.is_empty()) {
                        runs.push(Vec::new());
                    }
                }
            }
        }
        svg.open(
            "g",
            &[
                ("class", "series".into()),
                ("data-series", s.name.as_str().into()),
            ],
        );
        for run in runs.iter().filter(|r| !r.is_empty()) {
            let points: Vec<String> = run
                .iter()
                .map(|(x, y)| format!("{},{}", Num(*x), Num(*y)))
                .collect();
            let points = points.join(" ");
            for (colour, width) in [("#333333", 4.5), (s.colour.as_str(), 2.5)] {
                svg.leaf(
                    "polyline",
                    &[
                        ("points", points.as_str().into()),
                        ("fill", "none".into()),
                        ("stroke", colour.into()),
                        ("stroke-width", width.into()),
                        ("stroke-linejoin", "round".into()),
                    ],
                );
            }
            for (x, y) in run {
                svg.leaf(
                    "circle",
                    &[
                        ("cx", (*x).into()),
                        ("cy", (*y).into()),
                        ("r", 3.5.into()),
                        ("fill", s.colour.as_str().into()),
                        ("stroke", "#333333".into()),
                    ],
                );
            }
        }
        svg.close("g");
    }
    // Legend.
    // The legend keeps to the chart's height however many series there are.
    let spacing = ((HEIGHT - TOP - 20.0) / series.len().max(1) as f64).min(24.0);
    for (i, s) in series.iter().enumerate() {
        let y = TOP + 10.0 + spacing * i as f64;
        let x = WIDTH - RIGHT + 20.0;
        svg.leaf(
            "rect",
            &[
                ("x", x.into()),
                ("y", (y - 7.0).into()),
                ("width", 24.0.into()),
                ("height", 14.0.into()),
                ("fill", s.colour.as_str().into()),
                ("stroke", "#333333".into()),
            ],
        );
        let attrs: [(&str, Value<'_>); 4] = [
            ("x", (x + 32.0).into()),
            ("y", y.into()),
            ("font-size", 14.0.into()),
            ("dominant-baseline", "central".into()),
        ];
        svg.text("text", &attrs, &s.name);
    }
    svg.close("svg");
    svg.finish()
}

/// Every corporation's share price after each round (corporations that never had one are
/// left out).
pub fn prices_svg(history: &History) -> String {
    let series: Vec<Series> = history
        .corps
        .iter()
        .enumerate()
        .map(|(c, (sym, fill, _))| Series {
            name: sym.clone(),
            colour: fill.clone(),
            points: history
                .rounds
                .iter()
                .map(|r| r.prices.get(c).copied().flatten().map(|m| m.0))
                .collect(),
        })
        .filter(|s| s.points.iter().any(Option::is_some))
        .collect();
    line_chart("Share prices", "share price", &history.rounds, &series)
}

/// Every player's value (cash, shares at market price, privates at face value) after each
/// round.
pub fn values_svg(history: &History) -> String {
    let series: Vec<Series> = history
        .players
        .iter()
        .enumerate()
        .map(|(p, name)| Series {
            name: name.clone(),
            colour: palette::player_colour(p).to_string(),
            points: history
                .rounds
                .iter()
                .map(|r| r.values.get(p).map(|m| m.0))
                .collect(),
        })
        .collect();
    line_chart("Player values", "value", &history.rounds, &series)
}

#[cfg(test)]
mod tests {
    use super::tick_step;

    #[test]
    fn ticks_are_round_numbers() {
        assert_eq!(tick_step(450), 100);
        assert_eq!(tick_step(6000), 1000);
        assert_eq!(tick_step(95), 20);
        assert_eq!(tick_step(1), 1);
    }
}
