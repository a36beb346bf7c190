//! The game a text's tags set up: title, players, optional rules, and the random setup by its
//! seed or as stated (`Setup`).

use std::collections::BTreeMap;

use super::diagnostics::{Code, MoveError};
use super::names::{did_you_mean, find_company, find_corp};
use crate::engine::setup::ResolvedSetup;
use crate::engine::title::Title;
use crate::engine::{Game, GameOptions, GameSetup};
use crate::ids::PlayerId;
use crate::log::{shorten_quotes, GameLog, Header, LogPlayer, LogSource, Span, Spanned};
use crate::notation::GameText;

/// Sets a game up from its tags.
///
/// # Errors
/// A missing or wrong `Title`/`Players` tag, or a setup the title does not allow.
pub fn setup(src: &LogSource, text: &GameText, at: Span) -> Result<(Game, Header), MoveError> {
    let fail = |span: Span, code: Code, label: String, help: &str| MoveError {
        src: src.clone(),
        span,
        code,
        headline: shorten_quotes(format!("cannot set the game up: {label}")),
        label: shorten_quotes(label),
        related: Vec::new(),
        help: Some(help.to_string()),
        index: 0,
        round: String::new(),
        actor: None,
        unchecked: Vec::new(),
    };
    let Some(title) = text.tag("Title") else {
        return Err(fail(
            at,
            Code::MissingTag,
            "no `Title` tag".into(),
            "every game starts with `[Title \"1836Jr30\"]` and `[Players \"Ann, Bob, Cid\"]`",
        ));
    };
    let Some(players) = text.tag("Players") else {
        return Err(fail(
            title.span,
            Code::MissingTag,
            "no `Players` tag".into(),
            "name the players in seat order: `[Players \"Ann, Bob, Cid\"]`",
        ));
    };
    // The title in any case (`1836jr30`).
    let title_name = Title::known_names()
        .iter()
        .find(|n| n.eq_ignore_ascii_case(title.value.trim()))
        .map_or_else(|| title.value.clone(), |n| (*n).to_string());
    let names: Vec<String> = split_list(&players.value);
    let rules = text
        .tag("Rules")
        .map(|t| split_list(&t.value))
        .unwrap_or_default();
    let ids = text.tag("Ids").map(|t| split_list(&t.value));
    let seed = match text.tag("Seed") {
        None => None,
        // JSON logs carry the seed as a signed integer: keep to the range both can hold.
        Some(tag) => Some(
            tag.value
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|v| i64::try_from(*v).is_ok())
                .ok_or_else(|| {
                    fail(
                tag.value_span,
                Code::BadSeed,
                format!("`Seed` must be a whole number below 2^63, not `{}`", tag.value),
                "the seed of the random setup as 18xx.games records it: `[Seed \"1411315859\"]`",
            )
                })?,
        ),
    };
    let setup_tag = text.tag("Setup");
    let stated = match (setup_tag, Title::by_name(&title_name)) {
        (Some(tag), Some(t)) => Some(stated_setup(t, &tag.value).map_err(|label| {
            fail(
                tag.value_span,
                Code::BadSetup,
                label,
                "state the random setup as `[Setup \"removed DR, TDR, DCR, WDE, TIM, RSSC, \
                 SLNCR; charters DKR, UR, …\"]`: the privates and the minor removed, then every \
                 other minor in charter order",
            )
        })?),
        _ => None,
    };
    let game = Game::with_stated_setup(
        &GameSetup {
            title: title_name.clone(),
            players: names.clone(),
            seed,
            options: GameOptions {
                optional_rules: rules.clone(),
            },
        },
        stated.clone(),
    )
    .map_err(|e| {
        use crate::engine::SetupError;
        let setup_span = setup_tag.map_or(title.value_span, |t| t.value_span);
        let span = match e {
            SetupError::UnknownTitle(_) | SetupError::MissingSeed { .. } => title.value_span,
            SetupError::UnknownOptionalRule { .. } => {
                text.tag("Rules").map_or(at, |t| t.value_span)
            }
            SetupError::NoRandomSetup { .. } | SetupError::ImpossibleSetup { .. } => setup_span,
            SetupError::SetupDiffers { .. } => setup_span,
            SetupError::PlayerCount { .. } => players.value_span,
        };
        let help = match e {
            SetupError::MissingSeed { .. } => {
                "add the seed of the random setup, `[Seed \"1411315859\"]`, or the setup \
                 itself, `[Setup \"removed …; charters …\"]`"
            }
            SetupError::SetupDiffers { .. } => {
                "correct the `Setup` tag, or drop one of `Seed` and `Setup`"
            }
            SetupError::NoRandomSetup { .. } => "remove the `Setup` tag",
            SetupError::ImpossibleSetup { .. } => Title::by_name(&title_name)
                .and_then(Title::random_setup_rules)
                .unwrap_or("see `grammar/README.md` for the `Setup` tag"),
            SetupError::UnknownTitle(_) => {
                let hint = did_you_mean(&title.value, Title::known_names().iter().copied());
                return fail(
                    span,
                    Code::Setup,
                    e.to_string(),
                    &format!("{hint}the title is written as 18xx.games names it"),
                );
            }
            _ => "see `grammar/README.md` for the tags",
        };
        fail(span, Code::Setup, e.to_string(), help)
    })?;
    let header = Header {
        game_id: text.tag("Id").map(|t| t.value.clone()),
        title: Spanned::new(title_name.clone(), title.value_span),
        players: names
            .iter()
            .enumerate()
            .map(|(i, n)| LogPlayer {
                id: ids
                    .as_ref()
                    .and_then(|ids| ids.get(i).cloned())
                    .unwrap_or_else(|| n.clone()),
                name: n.clone(),
                span: players.value_span,
            })
            .collect(),
        players_span: players.value_span,
        optional_rules: rules
            .into_iter()
            .map(|r| Spanned::new(r, text.tag("Rules").map_or(at, |t| t.value_span)))
            .collect(),
        seed: seed.and_then(|s| i64::try_from(s).ok()),
        stated_setup: stated,
        result: None,
        game_end_reason: None,
    };
    Ok((game, header))
}

/// A `Setup` tag's value: `removed SYM, …; charters SYM, …` (privates and minors removed,
/// then the minors in charter order).
pub(super) fn stated_setup(title: &Title, value: &str) -> Result<ResolvedSetup, String> {
    if let Some(dealt) = value.trim().strip_prefix("dealt") {
        let mut dealt_companies = Vec::new();
        for sym in split_list(dealt) {
            dealt_companies.push(
                title
                    .company_by_sym(&sym)
                    .ok_or_else(|| format!("`{sym}` is not a private of {}", title.name))?,
            );
        }
        return Ok(ResolvedSetup {
            dealt_companies,
            ..ResolvedSetup::default()
        });
    }
    if value.contains(" brings ") {
        let mut president_draws = Vec::new();
        for draw in split_list(value) {
            let (company, corp) = draw
                .split_once(" brings ")
                .map(|(a, b)| (a.trim(), b.trim()))
                .ok_or_else(|| format!("`{draw}` is not `PRIVATE brings CORPORATION`"))?;
            president_draws.push((
                title
                    .company_by_sym(company)
                    .ok_or_else(|| format!("`{company}` is not a private of {}", title.name))?,
                title
                    .corp_by_sym(corp)
                    .ok_or_else(|| format!("`{corp}` is not a corporation of {}", title.name))?,
            ));
        }
        return Ok(ResolvedSetup {
            president_draws,
            ..ResolvedSetup::default()
        });
    }
    let (removed, charters) = value
        .split_once(';')
        .map(|(a, b)| (a.trim(), b.trim()))
        .ok_or_else(|| format!("`Setup` has two parts separated by `;`, not `{value}`"))?;
    let removed = removed
        .strip_prefix("removed")
        .ok_or_else(|| format!("`Setup` starts with `removed`, not `{removed}`"))?;
    let charters = charters.strip_prefix("charters").ok_or_else(|| {
        format!("the second part of `Setup` starts with `charters`, not `{charters}`")
    })?;
    let mut out = ResolvedSetup::default();
    for sym in split_list(removed).iter().filter(|s| !s.is_empty()) {
        if let Some(c) = find_company(title, sym) {
            out.removed_companies.push(c);
        } else if let Some(c) = find_corp(title, sym) {
            out.removed_corporations.push(c);
        } else {
            return Err(format!(
                "`{sym}` is not a private or minor of {}",
                title.name
            ));
        }
    }
    for sym in split_list(charters).iter().filter(|s| !s.is_empty()) {
        out.charter_order.push(
            find_corp(title, sym)
                .ok_or_else(|| format!("`{sym}` is not a minor of {}", title.name))?,
        );
    }
    Ok(out)
}

pub(super) fn split_list(s: &str) -> Vec<String> {
    s.split(',')
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

/// A converted document's companion: the ids of players by name (`[Ids "949, 2225"]`).
pub fn player_ids(log: &GameLog) -> BTreeMap<PlayerId, String> {
    log.header
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (PlayerId(i as u8), p.id.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::replay::notation::test_games::game_text;

    fn set_up(tags: &str) -> Result<(Game, Header), MoveError> {
        let src = format!("{tags}PR\n");
        let source = LogSource::new("test.rn", Arc::from(src.as_str()));
        setup(&source, &game_text(&src), Span::new(0, 0))
    }

    #[test]
    fn a_list_is_split_at_commas_and_trimmed() {
        assert_eq!(split_list(" Ann,Bob , ,Cid "), ["Ann", "Bob", "Cid"]);
        assert!(split_list("").is_empty());
    }

    #[test]
    fn the_title_and_players_set_the_game_up() {
        let (game, header) = set_up("[Title \"1836jr30\"]\n[Players \"Ann, Bob\"]\n").unwrap();
        assert_eq!(game.title.name, "1836Jr30");
        assert_eq!(header.title.value, "1836Jr30");
        assert_eq!(game.players.len(), 2);
        assert_eq!(header.players[1].id, "Bob");
        let (_, header) =
            set_up("[Title \"1830\"]\n[Players \"Ann, Bob\"]\n[Ids \"949, 2225\"]\n").unwrap();
        assert_eq!(header.players[1].id, "2225");
    }

    #[test]
    fn a_missing_or_wrong_tag_is_named() {
        let e = set_up("[Players \"Ann, Bob\"]\n").unwrap_err();
        assert_eq!(
            (e.code, e.label.as_str()),
            (Code::MissingTag, "no `Title` tag")
        );
        let e = set_up("[Title \"1830\"]\n").unwrap_err();
        assert_eq!(
            (e.code, e.label.as_str()),
            (Code::MissingTag, "no `Players` tag")
        );
        let e = set_up("[Title \"1830\"]\n[Players \"Ann, Bob\"]\n[Seed \"-1\"]\n").unwrap_err();
        assert_eq!(e.code, Code::BadSeed);
        let e = set_up("[Title \"1831\"]\n[Players \"Ann, Bob\"]\n").unwrap_err();
        assert_eq!(e.code, Code::Setup);
        assert!(e.help.unwrap().starts_with("did you mean `1830`?"));
    }

    #[test]
    fn the_setup_tag_states_what_was_drawn() {
        let ireland = Title::by_name("18Ireland").unwrap();
        let stated = stated_setup(ireland, "removed BoW, UR; charters DKR, GNWR").unwrap();
        assert_eq!(
            stated.removed_companies,
            [find_company(ireland, "BoW").unwrap()]
        );
        assert_eq!(
            stated.removed_corporations,
            [find_corp(ireland, "UR").unwrap()]
        );
        assert_eq!(
            stated.charter_order,
            [
                find_corp(ireland, "DKR").unwrap(),
                find_corp(ireland, "GNWR").unwrap()
            ]
        );
        assert_eq!(
            stated_setup(ireland, "removed BoW").unwrap_err(),
            "`Setup` has two parts separated by `;`, not `removed BoW`"
        );
        assert_eq!(
            stated_setup(ireland, "removed XYZ; charters DKR").unwrap_err(),
            "`XYZ` is not a private or minor of 18Ireland"
        );
    }
}
