//! Names as the game spells them (`nord` → `Nord`): what `railnote fmt` writes.

use super::names::by_name;
use super::setup::split_list;
use crate::engine::title::Title;
use crate::notation::{self, CheckValue, CorrectionKind, Element, RawAction, Source};

/// The names a game's text may use, for writing them as the game spells them.
pub(super) struct Spelling {
    /// Players (from the `Players` tag), corporations, privates, train types.
    pub(super) names: Vec<String>,
}

impl Spelling {
    /// The name as the game spells it (`nord` → `Nord`); as written if it names nothing, or
    /// more than one thing ignoring case.
    pub(super) fn of(&self, written: &str) -> String {
        by_name(written, self.names.iter().map(|n| (n.clone(), n.as_str())))
            .map_or_else(|| written.to_string(), str::to_string)
    }

    /// `nord_3` → `Nord_3`, `d-1` → `D-1`, `nord` → `Nord`.
    pub(super) fn of_id(&self, written: &str, separator: char) -> String {
        if let Some((name, rest)) = written.rsplit_once(separator) {
            let spelled = self.of(name);
            if spelled != name {
                return format!("{spelled}{separator}{rest}");
            }
        }
        self.of(written)
    }

    pub(super) fn fix(&self, name: &mut String) {
        *name = self.of(name);
    }

    pub(super) fn body(&self, body: &mut [Element]) {
        for e in body {
            match e {
                Element::Move(m) => {
                    if let Some(actor) = &mut m.actor {
                        self.fix(&mut actor.text);
                    }
                    self.action(&mut m.action);
                }
                Element::Variation(v) => self.body(&mut v.body),
                Element::Check(c) => {
                    for entry in &mut c.entries {
                        if entry.who.text != "bank" {
                            self.fix(&mut entry.who.text);
                        }
                        if let CheckValue::Holding(corp, _) = &mut entry.what {
                            self.fix(corp);
                        }
                    }
                }
                Element::Correction(c) => match &mut c.kind {
                    CorrectionKind::Cash { who, .. } => self.fix(&mut who.text),
                    CorrectionKind::Tile { .. } => {}
                    CorrectionKind::Share { share, to } => {
                        share.text = self.of_id(&share.text, '_');
                        if !matches!(to.text.as_str(), "pool" | "ipo") {
                            self.fix(&mut to.text);
                        }
                    }
                },
                Element::Heading(_) | Element::Comment(_) => {}
            }
        }
    }

    pub(super) fn action(&self, action: &mut RawAction) {
        match action {
            RawAction::Bid { target, .. } => self.fix(target),
            RawAction::Par { corp, .. } | RawAction::Merge { corp } => self.fix(corp),
            RawAction::Buy { what, .. } | RawAction::Sell { what, .. } => {
                for w in what {
                    *w = self.of_id(w, '_');
                }
            }
            RawAction::Train {
                train,
                from,
                exchange,
                ..
            } => {
                *train = self.of_id(train, '-');
                if let Source::Corp(c) = from {
                    self.fix(c);
                }
                if let Some(x) = exchange {
                    *x = self.of_id(x, '-');
                }
            }
            RawAction::Discard { train } => *train = self.of_id(train, '-'),
            RawAction::Run { routes } => {
                for r in routes {
                    r.train = self.of_id(&r.train, '-');
                }
            }
            RawAction::Assign { hex } => *hex = hex.to_ascii_uppercase(),
            RawAction::Pass
            | RawAction::Lay { .. }
            | RawAction::Token { .. }
            | RawAction::Payout
            | RawAction::Withhold
            | RawAction::Bankrupt
            | RawAction::Vote { .. }
            | RawAction::Program { .. }
            | RawAction::EndGame => {}
        }
    }
}

/// Writes every name of a document as its game spells it: the title, players (as the `Players`
/// tag has them), corporations, privates, certificates and trains (`buy nord` → `buy Nord`,
/// `[Title "1836jr30"]` → `1836Jr30`). What `railnote fmt` writes; a game of a title railnote
/// does not know is left as written.
pub fn spell_names(doc: &mut notation::Document) {
    for game in &mut doc.games {
        let Some(title) = game.tags.iter_mut().find(|t| t.name == "Title") else {
            continue;
        };
        let Some(known) = Title::known_names()
            .iter()
            .find(|n| n.eq_ignore_ascii_case(title.value.trim()))
        else {
            continue;
        };
        title.value = (*known).to_string();
        let Some(facts) = Title::by_name(known) else {
            continue;
        };
        let players = game.tag("Players").map(|t| split_list(&t.value));
        let spelling = Spelling {
            names: players
                .unwrap_or_default()
                .into_iter()
                .chain(facts.corporations.iter().map(|c| c.sym.clone()))
                .chain(facts.companies.iter().map(|c| c.sym.clone()))
                .chain(facts.trains.iter().map(|t| t.name.clone()))
                .collect(),
        };
        spelling.body(&mut game.body);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_written_as_the_game_spells_them() {
        let src = "[Title \"1836jr30\"]\n[Players \"Ann, Bob\"]\nSR 1\nann: buy nord_3\nbob: train d-1\n= ann nord 10%\n";
        let mut doc = notation::parse("test.rn", src).unwrap();
        spell_names(&mut doc);
        let written = notation::write(&doc);
        assert!(written.contains("[Title \"1836Jr30\"]"), "{written}");
        assert!(written.contains("Ann: buy Nord_3"), "{written}");
        assert!(written.contains("Bob: train D-1"), "{written}");
        assert!(written.contains("= Ann Nord 10%"), "{written}");
    }
}
