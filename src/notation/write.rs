//! The writer: [`Document`] → canonical text. `parse(write(d)) == d` for every document the
//! parser accepts, and `write` is the canonical form `railnote fmt` prints.
//!
//! Layout: tags one per line, a blank line, then the move text; a heading, a check line and a
//! correction each take a line; a move with a written actor starts a line; other moves follow
//! on the same line after `, `. A comment stays on the line of what it follows, or on a line of
//! its own when it was written so; a `;` comment ends its line.

use std::fmt::{self, Write as _};

use crate::notation::ast::*;

/// The canonical text of a document.
pub fn write(doc: &Document) -> String {
    let mut out = String::new();
    for (i, game) in doc.games.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_game(&mut out, game);
    }
    out
}

fn write_game(out: &mut String, game: &GameText) {
    for tag in &game.tags {
        let _ = writeln!(out, "[{} \"{}\"]", tag.name, tag.value);
    }
    if !game.tags.is_empty() && !game.body.is_empty() {
        out.push('\n');
    }
    let mut w = BodyWriter {
        out,
        line: Line::Closed,
    };
    w.body(&game.body);
    w.end_line();
}

struct BodyWriter<'a> {
    out: &'a mut String,
    line: Line,
}

/// The line being written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Line {
    /// None: the next element starts a line.
    Closed,
    /// Moves (or comments after them): a move without an actor may follow.
    Moves,
    /// A heading, check line or correction: only a comment may follow on it.
    Statement,
}

impl BodyWriter<'_> {
    fn end_line(&mut self) {
        if self.line != Line::Closed {
            self.out.push('\n');
            self.line = Line::Closed;
        }
    }

    fn statement_line(&mut self, text: &str) {
        self.end_line();
        self.out.push_str(text);
        self.line = Line::Statement;
    }

    fn body(&mut self, body: &[Element]) {
        for e in body {
            match e {
                Element::Heading(h) => self.statement_line(&h.round.to_string()),
                Element::Check(c) => self.statement_line(&check(c)),
                Element::Correction(c) => self.statement_line(&correction(c)),
                Element::Move(m) => {
                    if m.actor.is_some() || m.auto || self.line == Line::Statement {
                        self.end_line();
                    }
                    if self.line == Line::Moves {
                        self.out.push_str(", ");
                    }
                    self.out.push_str(&m.to_string());
                    self.line = Line::Moves;
                }
                Element::Comment(c) => {
                    if c.own_line {
                        self.end_line();
                    }
                    if self.line != Line::Closed {
                        self.out.push(' ');
                    }
                    if c.line {
                        let _ = writeln!(self.out, "; {}", c.text);
                        self.line = Line::Closed;
                    } else {
                        let _ = write!(self.out, "{{{}}}", c.text);
                        if self.line == Line::Closed {
                            self.line = Line::Moves;
                        }
                    }
                }
                Element::Variation(v) => {
                    if self.line == Line::Statement {
                        self.end_line();
                    }
                    if self.line != Line::Closed {
                        self.out.push(' ');
                    }
                    self.out.push('(');
                    let mut inner = String::new();
                    let mut w = BodyWriter {
                        out: &mut inner,
                        line: Line::Closed,
                    };
                    w.body(&v.body);
                    let open = w.line != Line::Closed;
                    // A trailing `;` comment needs its newline before the `)`. Known from the
                    // variation's last element: its written line may start inside a `{…}`
                    // comment opened on the line before, so the text cannot tell.
                    let trimmed = if open {
                        inner.as_str()
                    } else {
                        inner.trim_end_matches('\n')
                    };
                    let ends_in_line_comment =
                        matches!(v.body.last(), Some(Element::Comment(c)) if c.line);
                    self.out.push_str(trimmed);
                    if ends_in_line_comment {
                        self.out.push('\n');
                    }
                    self.out.push(')');
                    self.line = Line::Moves;
                }
            }
        }
    }
}

fn check(c: &Check) -> String {
    let mut s = String::from("=");
    for e in &c.entries {
        let _ = write!(s, " {}", name(&e.who.text));
        match &e.what {
            CheckValue::Cash(n) => {
                let _ = write!(s, " {n}");
            }
            CheckValue::Holding(corp, p) => {
                let _ = write!(s, " {} {p}%", name(corp));
            }
        }
    }
    s
}

fn correction(c: &Correction) -> String {
    match &c.kind {
        CorrectionKind::Cash { who, amount } => {
            format!("correct cash {} {amount:+}", name(&who.text))
        }
        CorrectionKind::Tile {
            tile,
            hex,
            orientation,
        } => format!(
            "correct tile {} {hex} {}",
            name(tile),
            orientation_text(orientation)
        ),
        CorrectionKind::Share { share, to } => {
            format!("correct share {} {}", name(&share.text), name(&to.text))
        }
    }
}

/// `r2` or `NE-SW`.
fn orientation_text(o: &Orientation) -> String {
    match o {
        Orientation::Rotation(r) => format!("r{r}"),
        Orientation::Sides(s) => {
            let names: Vec<&str> = s.iter().map(|s| s.as_str()).collect();
            names.join("-")
        }
    }
}

/// A name as a word, or quoted when it is not a plain word.
pub fn name(text: &str) -> String {
    let plain = !text.is_empty()
        && text.chars().all(|c| {
            !(c.is_whitespace()
                || matches!(
                    c,
                    ',' | '(' | ')' | '{' | '}' | '[' | ']' | ';' | '"' | ':' | '!' | '?'
                ))
        })
        && text != "&"
        && text != "=";
    if plain {
        text.to_string()
    } else {
        format!("\"{text}\"")
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.auto {
            f.write_str("& ")?;
        }
        if let Some(actor) = &self.actor {
            let n = name(&actor.text);
            write!(f, "{n}: ")?;
        }
        write!(f, "{}", self.action)?;
        if let Some(a) = self.annotation {
            f.write_str(a.as_str())?;
        }
        Ok(())
    }
}

impl fmt::Display for RawAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RawAction::Pass => f.write_str("pass"),
            RawAction::Payout => f.write_str("pay"),
            RawAction::Withhold => f.write_str("withhold"),
            RawAction::Bankrupt => f.write_str("bankrupt"),
            RawAction::Assign { hex } => write!(f, "assign {}", name(hex)),
            RawAction::Merge { corp } => write!(f, "merge {}", name(corp)),
            RawAction::Vote { in_favour } => f.write_str(if *in_favour {
                "vote for"
            } else {
                "vote against"
            }),
            RawAction::Bid { target, price } => write!(f, "bid {} {price}", name(target)),
            RawAction::Par { corp, price, cell } => {
                write!(f, "par {} {price}", name(corp))?;
                if let Some((r, c)) = cell {
                    write!(f, "@{r}.{c}")?;
                }
                Ok(())
            }
            RawAction::Buy {
                count,
                what,
                pool,
                percent,
                price,
                share_price,
            } => {
                f.write_str("buy")?;
                if let Some(n) = count {
                    write!(f, " {n}")?;
                }
                for w in what {
                    write!(f, " {}", name(w))?;
                }
                if *pool {
                    f.write_str(" pool")?;
                }
                if let Some(p) = percent {
                    write!(f, " {p}%")?;
                }
                if let Some(p) = price {
                    write!(f, " {p}")?;
                }
                if let Some(p) = share_price {
                    write!(f, " @{p}")?;
                }
                Ok(())
            }
            RawAction::Sell {
                count,
                what,
                percent,
                share_price,
            } => {
                f.write_str("sell")?;
                if let Some(n) = count {
                    write!(f, " {n}")?;
                }
                for w in what {
                    write!(f, " {}", name(w))?;
                }
                if let Some(p) = percent {
                    write!(f, " {p}%")?;
                }
                if let Some(p) = share_price {
                    write!(f, " @{p}")?;
                }
                Ok(())
            }
            RawAction::Lay {
                tile,
                hex,
                orientation,
            } => {
                // A quoted tile (the parser takes any word) starts with its quote: `lay` then.
                let tile = name(tile);
                if !tile.starts_with(|c: char| c.is_ascii_digit()) {
                    f.write_str("lay ")?;
                }
                write!(f, "{tile} {hex} {}", orientation_text(orientation))
            }
            RawAction::Token { at, slot, cost } => {
                f.write_str("tok ")?;
                match at {
                    TokenAt::Hex(h, None) => write!(f, "{h}")?,
                    TokenAt::Hex(h, Some(n)) => write!(f, "{h}/{n}")?,
                    TokenAt::City(c) => f.write_str(&name(c))?,
                }
                if let Some(s) = slot {
                    write!(f, " s{s}")?;
                }
                if let Some(c) = cost {
                    write!(f, " {c}")?;
                }
                Ok(())
            }
            RawAction::Run { routes } => {
                f.write_str("run")?;
                for r in routes {
                    write!(f, " {}:", r.train)?;
                    for (i, h) in r.walk.iter().enumerate() {
                        if i > 0 {
                            f.write_str("~")?;
                        }
                        write!(f, "{h}")?;
                    }
                    for (i, c) in r.connections.iter().enumerate() {
                        if i > 0 {
                            f.write_str("+")?;
                        }
                        for (j, h) in c.iter().enumerate() {
                            if j > 0 {
                                f.write_str("-")?;
                            }
                            write!(f, "{h}")?;
                        }
                    }
                    if let Some(rev) = r.revenue {
                        write!(f, "={rev}")?;
                    }
                    for (i, (h, p)) in r.nodes.iter().enumerate() {
                        f.write_str(if i == 0 { "@" } else { "+" })?;
                        write!(f, "{h}.{p}")?;
                    }
                }
                Ok(())
            }
            RawAction::Train {
                train,
                price,
                from,
                exchange,
            } => {
                write!(f, "train {}", name(train))?;
                if let Some(p) = price {
                    write!(f, " {p}")?;
                }
                match from {
                    Source::Ipo => {}
                    Source::Pool => f.write_str(" pool")?,
                    Source::Corp(c) => write!(f, " from {}", name(c))?,
                }
                if let Some(x) = exchange {
                    write!(f, " x {}", name(x))?;
                }
                Ok(())
            }
            RawAction::Discard { train } => write!(f, "discard {}", name(train)),
            RawAction::EndGame => f.write_str("end game"),
            RawAction::Program { kind, args } => {
                write!(f, "program {}", name(kind))?;
                for (k, v) in args {
                    write!(f, " {k}={v}")?;
                }
                Ok(())
            }
        }
    }
}
