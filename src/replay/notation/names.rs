//! Names as written, in any case, to what they name: players, corporations, privates,
//! certificates (`Nord_3`) and trains (`3-1`); and the "did you mean" of a name that names
//! nothing.

use super::diagnostics::Code;
use super::resolve::{unresolved, Unresolved};
use crate::action::Entity;
use crate::engine::title::Title;
use crate::engine::Game;
use crate::ids::{CorpId, ShareId, TrainId};
use crate::notation::{self};

/// A name as written, in any case: the exact one first, else the only one that matches
/// ignoring case (`nord` is Nord; `Ann` and `ann` both players would need the exact case).
pub(super) fn by_name<T: Copy>(
    written: &str,
    all: impl Iterator<Item = (String, T)> + Clone,
) -> Option<T> {
    if let Some((_, t)) = all.clone().find(|(n, _)| n == written) {
        return Some(t);
    }
    let mut folded = all.filter(|(n, _)| n.eq_ignore_ascii_case(written));
    match (folded.next(), folded.next()) {
        (Some((_, t)), None) => Some(t),
        _ => None,
    }
}

/// A corporation by its symbol, in any case.
pub(super) fn find_corp(title: &Title, sym: &str) -> Option<CorpId> {
    by_name(
        sym,
        title
            .corporations
            .iter()
            .enumerate()
            .map(|(i, c)| (c.sym.clone(), CorpId(i as u8))),
    )
}

/// A private by its symbol, in any case.
pub(super) fn find_company(title: &Title, sym: &str) -> Option<crate::ids::CompanyId> {
    by_name(
        sym,
        title
            .companies
            .iter()
            .enumerate()
            .map(|(i, c)| (c.sym.clone(), crate::ids::CompanyId(i as u8))),
    )
}

/// Every name of a game an actor can be: players, corporations, privates.
pub(super) fn entity_names(game: &Game) -> Vec<&str> {
    game.players
        .iter()
        .map(|p| p.name.as_str())
        .chain(game.title.corporations.iter().map(|c| c.sym.as_str()))
        .chain(game.title.companies.iter().map(|c| c.sym.as_str()))
        .collect()
}

/// "did you mean `Nord`? " when a name is near one of `names`, else nothing.
pub(super) fn did_you_mean<'a>(written: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    notation::nearest(written, names)
        .map(|n| format!("did you mean `{}`? ", notation::name(n)))
        .unwrap_or_default()
}

/// Names an entity (player name, corporation or private symbol), in any case.
pub fn entity_by_name(game: &Game, name: &str) -> Result<Entity, Unresolved> {
    let all = game
        .players
        .iter()
        .map(|p| (p.name.clone(), Entity::Player(p.id)))
        .chain(
            game.title
                .corporations
                .iter()
                .enumerate()
                .map(|(i, c)| (c.sym.clone(), Entity::Corporation(CorpId(i as u8)))),
        )
        .chain(game.title.companies.iter().enumerate().map(|(i, c)| {
            (
                c.sym.clone(),
                Entity::Company(crate::ids::CompanyId(i as u8)),
            )
        }));
    if let Some(e) = by_name(name, all) {
        return Ok(e);
    }
    let players: Vec<String> = game
        .players
        .iter()
        .map(|p| notation::name(&p.name))
        .collect();
    Err(
        unresolved(Code::UnknownEntity, format!("nobody is called `{name}`")).help(format!(
            "{}players: {}; corporations and privates by symbol, e.g. `Nord:`",
            did_you_mean(name, entity_names(game)),
            players.join(", ")
        )),
    )
}

pub(super) fn corp(game: &Game, sym: &str) -> Result<CorpId, Unresolved> {
    find_corp(game.title, sym).ok_or_else(|| {
        let all: Vec<&str> = game
            .title
            .corporations
            .iter()
            .map(|c| c.sym.as_str())
            .collect();
        unresolved(
            Code::UnknownEntity,
            format!("{} has no corporation `{sym}`", game.title.name),
        )
        .help(format!(
            "{}corporations: {}",
            did_you_mean(sym, all.iter().copied()),
            all.join(", ")
        ))
    })
}

pub(super) fn share_id(game: &Game, text: &str) -> Result<ShareId, Unresolved> {
    text.rsplit_once('_')
        .and_then(|(c, i)| {
            let corp = find_corp(game.title, c)?;
            let index: u8 = i.parse().ok()?;
            ((index as usize) < game.title.share_sizes(corp).len())
                .then_some(ShareId { corp, index })
        })
        .ok_or_else(|| {
            unresolved(Code::UnknownShare, format!("no certificate `{text}`"))
                .help("a certificate is `CORP_n`, n = 0 for the president's, e.g. `Nord_3`")
        })
}

pub(super) fn share_text(game: &Game, s: ShareId) -> String {
    format!("{}_{}", game.title.corp(s.corp).sym, s.index)
}

/// The reference id of a train (`3-1`).
pub fn train_text(game: &Game, t: TrainId) -> String {
    format!("{}-{}", game.title.train(t.kind).name, t.copy)
}

/// A train type by its name, in any case (`d` is the D).
pub(super) fn find_train_kind(title: &Title, name: &str) -> Option<crate::ids::TrainKind> {
    by_name(
        name,
        title
            .trains
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.clone(), crate::ids::TrainKind(i as u8))),
    )
}

pub(super) fn explicit_train(game: &Game, text: &str) -> Option<TrainId> {
    let (name, copy) = text.rsplit_once('-')?;
    let kind = find_train_kind(game.title, name)?;
    let copy: u16 = copy.parse().ok()?;
    (copy
        < game
            .title
            .train(kind)
            .count_with(&game.options.optional_rules))
    .then_some(TrainId { kind, copy })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::PlayerId;
    use crate::replay::notation::test_games::jr30;

    #[test]
    fn an_exact_name_wins_over_one_in_another_case() {
        let all = || {
            [("Ann", 1), ("ann", 2), ("Bob", 3)]
                .into_iter()
                .map(|(n, k)| (n.to_string(), k))
        };
        assert_eq!(by_name("ann", all()), Some(2));
        assert_eq!(by_name("Ann", all()), Some(1));
        // Two names match ignoring case: neither is meant.
        assert_eq!(by_name("ANN", all()), None);
        assert_eq!(by_name("bob", all()), Some(3));
        assert_eq!(by_name("Cid", all()), None);
    }

    #[test]
    fn entities_are_named_in_any_case() {
        let game = jr30();
        assert_eq!(
            entity_by_name(&game, "bob"),
            Ok(Entity::Player(PlayerId(1)))
        );
        let nord = find_corp(game.title, "Nord").expect("1836Jr30 has Nord");
        assert_eq!(entity_by_name(&game, "NORD"), Ok(Entity::Corporation(nord)));
        assert!(matches!(
            entity_by_name(&game, "cflv"),
            Ok(Entity::Company(_))
        ));
    }

    #[test]
    fn an_unknown_name_says_whom_it_may_mean() {
        let game = jr30();
        let u = entity_by_name(&game, "Bbo").unwrap_err();
        assert_eq!(u.code, Code::UnknownEntity);
        assert_eq!(u.message, "nobody is called `Bbo`");
        assert_eq!(
            u.help.as_deref(),
            Some(
                "did you mean `Bob`? players: Ann, Bob, Cid; corporations and privates by \
                 symbol, e.g. `Nord:`"
            )
        );
        let u = corp(&game, "Nrd").unwrap_err();
        assert_eq!(u.message, "1836Jr30 has no corporation `Nrd`");
        assert!(u
            .help
            .unwrap()
            .starts_with("did you mean `Nord`? corporations: "));
    }

    #[test]
    fn certificates_and_trains_are_read_and_written() {
        let game = jr30();
        let share = share_id(&game, "nord_3").unwrap();
        assert_eq!(share_text(&game, share), "Nord_3");
        assert_eq!(
            share_id(&game, "Nord_99").unwrap_err().code,
            Code::UnknownShare
        );
        assert_eq!(
            share_id(&game, "Nord").unwrap_err().code,
            Code::UnknownShare
        );
        let train = explicit_train(&game, "2-1").unwrap();
        assert_eq!(train_text(&game, train), "2-1");
        assert_eq!(explicit_train(&game, "2-99"), None);
        assert_eq!(explicit_train(&game, "2"), None);
    }
}
