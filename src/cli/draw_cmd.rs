//! The drawing side of the command line: `map`, `chart`, `transcript`, `view`.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use super::{
    import_game, input_name, limits, notation_cmd, read_game, read_input, reject, with_path,
    Format, Outcome,
};
use crate::draw::document::GameDocument;
use crate::draw::map::{map_svg, route_paths, DrawnRoute, MapOptions};
use crate::draw::{chart, png, transcript, viewer};
use crate::ids::CorpId;
use crate::output::{best_run, FailureReport};
use crate::replay::ReplayError;

/// Arguments of `railnote map`.
#[derive(Debug, clap::Args)]
pub struct MapArgs {
    /// The game: an 18xx.games JSON log or a notation file.
    pub file: PathBuf,
    #[arg(long, value_name = "N|line:L|ROUND", help = super::AT_HELP)]
    pub at: Option<crate::replay::At>,
    /// Draw this corporation's best run (all its trains), each train in its own colour.
    #[arg(long, value_name = "CORP")]
    pub routes: Option<String>,
    /// The picture: `.svg` or `.png` (by the extension).
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// PNG pixels per SVG unit (a hex is 200 units wide).
    #[arg(long, default_value_t = 0.5)]
    pub scale: f32,
}

/// Arguments of `railnote chart`.
#[derive(Debug, clap::Args)]
pub struct ChartArgs {
    /// The game: an 18xx.games JSON log or a notation file.
    pub file: PathBuf,
    /// The share price of every corporation after each round.
    #[arg(long, conflicts_with = "values", required_unless_present = "values")]
    pub prices: bool,
    /// Every player's value (cash, shares at market, privates) after each round.
    #[arg(long)]
    pub values: bool,
    /// The picture: `.svg` or `.png` (by the extension).
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// PNG pixels per SVG unit.
    #[arg(long, default_value_t = 1.0)]
    pub scale: f32,
}

/// Arguments of `railnote transcript`.
#[derive(Debug, clap::Args)]
pub struct TranscriptArgs {
    /// The game: an 18xx.games JSON log or a notation file.
    pub file: PathBuf,
    /// Output format: sentences by round, or one JSON object per event and line.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Arguments of `railnote view`.
#[derive(Debug, clap::Args)]
pub struct ViewArgs {
    /// The game: an 18xx.games JSON log or a notation file.
    pub file: PathBuf,
    /// The HTML file to write.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
}

/// The picture formats, chosen by the output's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PictureFormat {
    Svg,
    Png,
}

fn picture_format(path: &Path) -> Option<PictureFormat> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("svg") => Some(PictureFormat::Svg),
        Some("png") => Some(PictureFormat::Png),
        _ => None,
    }
}

fn write_picture(path: &Path, svg: &str, scale: f32) -> io::Result<Outcome> {
    match picture_format(path) {
        Some(PictureFormat::Svg) => {
            std::fs::write(path, svg).map_err(|e| with_path(path, e))?;
        }
        Some(PictureFormat::Png) => {
            if !(scale.is_finite() && scale > 0.0 && scale <= 8.0) {
                eprintln!("railnote: --scale {scale}: give a number above 0 and at most 8");
                return Ok(Outcome::Failed);
            }
            match png::svg_to_png(svg, scale) {
                Ok(bytes) => std::fs::write(path, bytes).map_err(|e| with_path(path, e))?,
                Err(e) => {
                    eprintln!("railnote: {}: {e}", path.display());
                    return Ok(Outcome::Failed);
                }
            }
        }
        None => return Ok(check_picture_path(path).unwrap_or(Outcome::Failed)),
    }
    Ok(Outcome::Legal)
}

fn check_picture_path(path: &Path) -> Option<Outcome> {
    if picture_format(path).is_none() {
        eprintln!(
            "railnote: {}: the picture's name must end in .svg or .png",
            path.display()
        );
        return Some(Outcome::Failed);
    }
    None
}

/// `railnote map FILE [--at N|ROUND] [--routes CORP] -o OUT`.
pub(super) fn map(args: &MapArgs) -> io::Result<Outcome> {
    if let Some(outcome) = check_picture_path(&args.output) {
        return Ok(outcome);
    }
    let (game, processed) =
        match super::state::game_at(&args.file, args.at.as_ref(), Format::Text, false)? {
            Ok(at) => (at.game, at.processed),
            Err(outcome) => return Ok(outcome),
        };
    let mut options = MapOptions {
        caption: crate::draw::caption(&game, processed),
        ..MapOptions::default()
    };
    if let Some(sym) = &args.routes {
        let Some(corp) = (0..game.corps.len())
            .map(|i| CorpId(i as u8))
            .find(|&c| game.title.corp(c).sym.eq_ignore_ascii_case(sym))
        else {
            let known: Vec<&str> = game
                .title
                .corporations
                .iter()
                .map(|c| c.sym.as_str())
                .collect();
            eprintln!(
                "railnote: --routes {sym}: no such corporation (known: {})",
                known.join(", ")
            );
            return Ok(Outcome::Failed);
        };
        if !game.corp(corp).floated || game.corp(corp).closed {
            eprintln!(
                "railnote: --routes {sym}: {} has not floated or has closed at this state",
                game.title.corp(corp).sym
            );
            return Ok(Outcome::Failed);
        }
        let best = match best_run(&game, corp, limits(None)) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("railnote: {e}");
                return Ok(Outcome::Failed);
            }
        };
        options.routes = best
            .routes
            .iter()
            .map(|r| DrawnRoute {
                train: game.train_name(r.spec.train),
                stops: r.stops.iter().map(|(h, _)| *h).collect(),
                revenue: r.revenue,
                paths: route_paths(&game, &r.spec),
            })
            .collect();
        options.routes_of = Some(corp);
        if options.routes.is_empty() {
            eprintln!(
                "railnote: {} has no run at this state (no train, or no route)",
                game.title.corp(corp).sym
            );
        }
    }
    write_picture(&args.output, &map_svg(&game, &options), args.scale)
}

/// `railnote chart FILE --prices|--values -o OUT`.
pub(super) fn chart(args: &ChartArgs) -> io::Result<Outcome> {
    if let Some(outcome) = check_picture_path(&args.output) {
        return Ok(outcome);
    }
    let log = match read_game(&args.file, Format::Text)? {
        Ok(log) => log,
        Err(outcome) => return Ok(outcome),
    };
    let history = match chart::History::of(&log) {
        Ok(h) => h,
        Err(e) => return reject(Format::Text, replay_report(&e), e),
    };
    let svg = if args.prices {
        chart::prices_svg(&history)
    } else {
        chart::values_svg(&history)
    };
    write_picture(&args.output, &svg, args.scale)
}

/// `railnote transcript FILE [--format text|json]`.
pub(super) fn transcript(args: &TranscriptArgs) -> io::Result<Outcome> {
    let Some(doc) = read_document(&args.file)? else {
        return Ok(Outcome::Rejected);
    };
    let events = match transcript::events(&doc.log, Some(&doc.notes)) {
        Ok(e) => e,
        Err(e) => return reject(args.format, replay_report(&e), e),
    };
    let mut out = super::stdout();
    match args.format {
        Format::Text => write!(out, "{}", transcript::text(&events))?,
        Format::Json => {
            for e in &events {
                writeln!(out, "{}", serde_json::to_string(e)?)?;
            }
        }
    }
    out.flush()?;
    Ok(Outcome::Legal)
}

/// `railnote view FILE -o OUT.html`.
pub(super) fn view(args: &ViewArgs) -> io::Result<Outcome> {
    let Some(doc) = read_document(&args.file)? else {
        return Ok(Outcome::Rejected);
    };
    let html = match viewer::html(&doc) {
        Ok(h) => h,
        Err(e) => return reject(Format::Text, replay_report(&e), e),
    };
    std::fs::write(&args.output, html).map_err(|e| with_path(&args.output, e))?;
    Ok(Outcome::Legal)
}

fn replay_report(e: &ReplayError) -> FailureReport {
    match e {
        ReplayError::Setup(s) => FailureReport::from(s),
        ReplayError::Illegal(i) => FailureReport::from(i),
    }
}

/// Reads a game for the transcript or the viewer; a file that cannot be read as a game is
/// reported (with its diagnostic) and gives `None`.
fn read_document(file: &Path) -> io::Result<Option<GameDocument>> {
    let src = read_input(file)?;
    let name = input_name(file);
    let read = if notation_cmd::is_json(&src) {
        match import_game(&name, &src) {
            Ok(log) => GameDocument::from_json_log(&log),
            Err(e) => {
                eprintln!("{:?}", miette::Report::new(e));
                return Ok(None);
            }
        }
    } else {
        GameDocument::from_notation(&name, &src)
    };
    match read {
        Ok(doc) => Ok(Some(doc)),
        Err(e) => {
            eprintln!("{:?}", miette::Report::new(e));
            Ok(None)
        }
    }
}
