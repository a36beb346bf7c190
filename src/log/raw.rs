//! The syntax of an 18xx.games game log: header and actions as written, with spans, no rules.
//!
//! Only what every action has (type, id, entity, `action_id` of undos, embedded auto actions) is
//! decoded here; the type-specific fields are decoded by [`crate::log::resolve`] for the actions
//! that survive undo filtering, as the reference engine never looks at undone actions.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::log::error::{LogError, Problem, ProblemKind, DIAGNOSTICS_KEPT};
use crate::log::json::{self, Json, Obj, Tree, Val, What};
use crate::log::span::{Span, Spanned};

/// A game log as written: the header and every action of the `actions` array.
#[derive(Debug, Clone)]
pub struct Document {
    /// The file name, for diagnostics.
    pub name: String,
    /// The file's text.
    pub src: Arc<str>,
    /// Title, players, options, stored result.
    pub header: Header,
    /// Every entry of `actions`, undone ones and `undo`/`redo` records included.
    pub actions: Vec<RawAction>,
    /// Every value of the file, for the fields of the actions.
    pub(crate) tree: Tree,
}

impl Document {
    /// The span of an action's field's value, if present and not `null`.
    pub fn field(&self, action: &RawAction, key: &str) -> Option<Span> {
        self.object(action).get_span(key)
    }

    /// The action's JSON object.
    pub(crate) fn object<'d>(&'d self, action: &'d RawAction) -> Obj<'d> {
        let json = Json::new(&self.src, &self.tree);
        Obj::read(json, action.val, What::Action(&action.kind.value))
    }
}

/// The top-level fields of a log that railnote uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The game's id (an integer, or a string for hotseat games), as text.
    pub game_id: Option<String>,
    /// The title name (`1836Jr30`).
    pub title: Spanned<String>,
    /// The players in seat order.
    pub players: Vec<LogPlayer>,
    /// Where the `players` array is.
    pub players_span: Span,
    /// `settings.optional_rules`.
    pub optional_rules: Vec<Spanned<String>>,
    /// `settings.seed`, if any.
    pub seed: Option<i64>,
    /// The random setup a notation game states with its `Setup` tag (JSON logs have only the
    /// seed).
    pub stated_setup: Option<crate::engine::setup::ResolvedSetup>,
    /// The stored final scores by player id, if the game finished, each with where it is.
    pub result: Option<BTreeMap<String, Spanned<i64>>>,
    /// The stored game-end reason (`bank`, `bankrupt`, …).
    pub game_end_reason: Option<String>,
}

/// A player as listed in the log's header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogPlayer {
    /// The id actions use for this player: the `id` field as text, or the name for hotseat logs
    /// whose players have no id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Where the player's entry is.
    pub span: Span,
}

/// One entry of the `actions` array, as written.
#[derive(Debug, Clone)]
pub struct RawAction {
    /// The whole JSON object.
    pub span: Span,
    /// The source id (auto actions have none).
    pub id: Option<i64>,
    /// The `type` field (`lay_tile`, `undo`, …).
    pub kind: Spanned<Cow<'static, str>>,
    /// For `undo`: the `action_id` to undo back to (the state after that action), if given.
    pub action_id: Option<Spanned<i64>>,
    /// Embedded actions generated when the game was live, processed right after this one.
    pub auto_actions: Vec<RawAction>,
    /// What `kind` names.
    pub(crate) ty: ActionType,
    /// Its object in the document's tree, for the other fields (`entity`, `entity_type`, and
    /// those of its type: [`Document::field`]).
    pub(crate) val: Val,
}

impl RawAction {
    /// Whether this is an `undo`, `redo` or `message` record rather than a game action.
    pub fn is_meta(&self) -> bool {
        matches!(
            self.ty,
            ActionType::Undo | ActionType::Redo | ActionType::Message
        )
    }
}

/// Declares [`ActionType`]: the action types railnote reads, by their names in the logs.
macro_rules! action_types {
    ($($variant:ident = $name:literal),* $(,)?) => {
        /// What an action is, from its `type`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum ActionType {
            $($variant,)*
            /// `program_*`: the site's automatic-play settings.
            Program,
            /// A type railnote does not know.
            Unknown,
        }

        impl ActionType {
            /// The type a `type` field names.
            pub(crate) fn of(name: &str) -> ActionType {
                Self::of_code(json::key_code_of(name.as_bytes(), 0, name.len()), name)
            }

            /// [`ActionType::of`] a name whose [`json::key_code`] is known.
            pub(crate) fn of_code(code: Option<u128>, name: &str) -> ActionType {
                match code.and_then(Self::known) {
                    Some(ty) => ty,
                    None if name.starts_with("program_") => ActionType::Program,
                    None => ActionType::Unknown,
                }
            }

            /// The known type whose name has this [`json::key_code`].
            fn known(code: u128) -> Option<ActionType> {
                const KNOWN: [ActionType; [$($name),*].len()] = [$(ActionType::$variant),*];
                static NAMES: json::KeyTable<{ KNOWN.len() }> = json::KeyTable::new([$($name),*]);
                NAMES.slot(code).map(|i| KNOWN[i])
            }

            /// Its name, if it is one railnote knows (not a `program_*` one).
            pub(crate) fn name(self) -> Option<&'static str> {
                match self {
                    $(ActionType::$variant => Some($name),)*
                    ActionType::Program | ActionType::Unknown => None,
                }
            }
        }
    };
}

action_types! {
    Bid = "bid",
    Pass = "pass",
    Par = "par",
    BuyShares = "buy_shares",
    SellShares = "sell_shares",
    BuyCompany = "buy_company",
    LayTile = "lay_tile",
    PlaceToken = "place_token",
    RunRoutes = "run_routes",
    Dividend = "dividend",
    BuyTrain = "buy_train",
    DiscardTrain = "discard_train",
    Bankrupt = "bankrupt",
    Assign = "assign",
    Merge = "merge",
    Choose = "choose",
    EndGame = "end_game",
    Undo = "undo",
    Redo = "redo",
    Message = "message",
}

/// An action's type and its name (the text of the `type` field `v`), shared unless it is a
/// `program_*` or unknown one.
fn action_type(json: Json<'_>, v: Val, text: Cow<'_, str>) -> (ActionType, Cow<'static, str>) {
    let ty = json::string_code(json, v)
        .and_then(ActionType::known)
        .unwrap_or_else(|| ActionType::of(&text));
    match ty.name() {
        Some(name) => (ty, Cow::Borrowed(name)),
        None => (ty, Cow::Owned(text.into_owned())),
    }
}

const LOG_SHAPE: &str =
    "an 18xx.games game log is one JSON object: {\"title\": …, \"players\": […], \"actions\": […]}";

/// Reads the syntax of a game log.
///
/// # Errors
/// Broken JSON, or missing or mistyped header or action fields; every problem is reported.
pub fn parse(name: &str, src: &str) -> Result<Document, LogError> {
    parse_shared(name, Arc::from(src))
}

/// [`parse`] of a text the caller shares already (no copy of a large log is made).
///
/// # Errors
/// As [`parse`].
pub fn parse_shared(name: &str, shared: Arc<str>) -> Result<Document, LogError> {
    let src: &str = &shared;
    let tree = match Json::parse(src) {
        Ok(tree) => tree,
        Err(p) => return Err(LogError::new(name, Arc::clone(&shared), vec![p])),
    };
    let json = Json::new(src, &tree);
    let mut problems = Vec::new();
    let doc = match Obj::document(json) {
        Ok(doc) => doc,
        Err(p) => return Err(LogError::new(name, Arc::clone(&shared), vec![p])),
    };
    let header = parse_header(&doc, &mut problems);
    let mut actions = Vec::new();
    let mut omitted = 0;
    match doc.array("actions", "the list of the game's actions") {
        Ok(items) => {
            // Sized once: a log has hundreds of actions, and each growth would copy them all.
            actions.reserve(items.clone().count());
            for item in items {
                match parse_action(json, item, false) {
                    Ok(a) => actions.push(a),
                    Err(mut ps) => {
                        problems.append(&mut ps);
                        omitted += keep_first(&mut problems);
                    }
                }
            }
        }
        Err(p) => problems.push(p.with_help(LOG_SHAPE)),
    }
    match header {
        Some(header) if problems.is_empty() => Ok(Document {
            name: name.to_string(),
            src: shared,
            header,
            actions,
            tree,
        }),
        _ => Err(LogError::new(name, shared, problems).and_omitted(omitted)),
    }
}

/// Keeps the first [`DIAGNOSTICS_KEPT`] problems (a log may have one per action) and says how
/// many it dropped.
pub(crate) fn keep_first(problems: &mut Vec<Problem>) -> usize {
    let dropped = problems.len().saturating_sub(DIAGNOSTICS_KEPT);
    problems.truncate(DIAGNOSTICS_KEPT);
    dropped
}

fn parse_header(doc: &Obj<'_>, problems: &mut Vec<Problem>) -> Option<Header> {
    let json = doc.json;
    let before = problems.len();
    let title = keep(
        doc.str("title", "the game's title, e.g. \"1836Jr30\""),
        problems,
    );
    let game_id = keep(doc.opt_id("id"), problems).flatten().map(|s| s.value);
    let mut players = Vec::new();
    let players_span = doc.get_span("players").unwrap_or(doc.span);
    if let Some(items) = keep(
        doc.array(
            "players",
            "the seat order: [{\"id\": 1, \"name\": \"Ann\"}, …]",
        ),
        problems,
    ) {
        for item in items {
            let span = json.span(item);
            let player = Obj::at(json, item, What::Text("a player")).and_then(|p| {
                let name = p.str("name", "the player's name")?;
                let id = p
                    .opt_id("id")?
                    .map_or_else(|| name.value.clone(), |id| id.value);
                Ok(LogPlayer {
                    id,
                    name: name.value,
                    span,
                })
            });
            if let Some(p) = keep(player, problems) {
                players.push(p);
            }
        }
    }
    let mut optional_rules = Vec::new();
    let mut seed = None;
    if let Some(v) = doc.get("settings") {
        if let Some(settings) = keep(Obj::at(json, v, What::Text("`settings`")), problems) {
            seed = keep(settings.opt_int("seed"), problems)
                .flatten()
                .map(|s| s.value);
            if let Some(items) = keep(settings.opt_array("optional_rules"), problems) {
                for item in items {
                    if let Some(rule) = keep(
                        json::string_at(json, item, &|| "an optional rule".into()),
                        problems,
                    ) {
                        optional_rules.push(rule);
                    }
                }
            }
        }
    }
    let result = match doc.get("result") {
        None => None,
        Some(v) => keep(Obj::at(json, v, What::Text("`result`")), problems).and_then(|r| {
            let scores: Result<BTreeMap<String, Spanned<i64>>, Problem> = r
                .keys()
                .into_iter()
                .map(|k| Ok((k.to_string(), r.int(&k, "a score")?)))
                .collect();
            keep(scores, problems)
        }),
    };
    let game_end_reason = keep(doc.opt_str("game_end_reason"), problems)
        .flatten()
        .map(|s| s.value);
    if problems.len() > before {
        return None;
    }
    Some(Header {
        game_id,
        title: title?,
        players,
        players_span,
        optional_rules,
        seed,
        stated_setup: None,
        result,
        game_end_reason,
    })
}

/// `Ok` values pass; a problem is collected and becomes `None`.
fn keep<T>(r: Result<T, Problem>, problems: &mut Vec<Problem>) -> Option<T> {
    r.map_err(|p| problems.push(p)).ok()
}

json::field_set! {
    /// The fields every action may have.
    pub(super) common {
        TYPE = "type",
        ID = "id",
        ENTITY = "entity",
        ENTITY_TYPE = "entity_type",
        ACTION_ID = "action_id",
        AUTO_ACTIONS = "auto_actions",
    }
}

fn parse_action(json: Json<'_>, val: Val, auto: bool) -> Result<RawAction, Vec<Problem>> {
    let what = What::Text(if auto { "an auto action" } else { "an action" });
    let obj = Obj::at(json, val, what).map_err(|p| vec![p])?;
    let mut problems = Vec::new();
    // The fields every action may have, found in one pass (a log has thousands of actions).
    let [kind, id, entity, entity_type, action_id, autos] =
        obj.find(&common::KEYS, common::slot).values();
    let obj = &obj;
    let name = |key: &'static str| move || obj.field_name(key);
    let mut auto_actions = Vec::new();
    match autos.map(|v| json::array_at(json, v, &name("auto_actions"))) {
        None => {}
        // 18xx.games embeds auto actions in a top-level action only; reading theirs would
        // also let the file choose how deep this recursion goes.
        Some(Ok(mut items)) if auto => {
            if let Some(first) = items.next() {
                problems.push(
                    Problem::new(
                        ProblemKind::BadValue,
                        json.span(first),
                        "an auto action has no auto actions of its own",
                        "auto action inside an auto action",
                    )
                    .with_help("auto actions are listed in the `auto_actions` of the top-level action that caused them"),
                );
            }
        }
        Some(Ok(items)) => {
            for item in items {
                match parse_action(json, item, true) {
                    Ok(a) => auto_actions.push(a),
                    Err(mut ps) => problems.append(&mut ps),
                }
            }
        }
        Some(Err(p)) => problems.push(p),
    }
    // The fields' problems follow those of the auto actions, in this order.
    let known =
        kind.and_then(|v| Some((v, json::string_code(json, v).and_then(ActionType::known)?)));
    let kind = match known {
        Some((v, ty)) => Some(Spanned::new(
            (ty, ty.name().map_or(Cow::Borrowed(""), Cow::Borrowed)),
            json.span(v),
        )),
        None => keep(
            obj.required("type", kind, "the action type, e.g. \"lay_tile\"")
                .and_then(|v| {
                    let text = json::text_at(json, v, &name("type"))?;
                    Ok(Spanned::new(action_type(json, v, text.value), text.span))
                }),
            &mut problems,
        ),
    };
    let id = if auto {
        Some(None)
    } else {
        keep(
            obj.required("id", id, "the action's integer id")
                .and_then(|v| json::int_at(json, v, &name("id"))),
            &mut problems,
        )
        .map(|id| Some(id.value))
    };
    // Read by the resolver; a file that has them wrong is reported here, undone or not.
    if let Some(v) = entity.filter(|v| !json::is_plain_string(json, *v)) {
        keep(json::id_at(json, v, &name("entity")), &mut problems);
    }
    if let Some(v) = entity_type.filter(|v| !json::is_plain_string(json, *v)) {
        keep(json::text_at(json, v, &name("entity_type")), &mut problems);
    }
    let action_id = match action_id {
        Some(v) => keep(json::int_at(json, v, &name("action_id")), &mut problems).map(Some),
        None => Some(None),
    };
    match (kind, id, action_id) {
        (Some(kind), Some(id), Some(action_id)) if problems.is_empty() => {
            let (ty, name) = kind.value;
            Ok(RawAction {
                span: obj.span,
                id,
                kind: Spanned::new(name, kind.span),
                ty,
                action_id,
                auto_actions,
                val,
            })
        }
        _ => Err(problems),
    }
}

/// The surviving actions of a log after undo/redo filtering, as indices into `actions`, in
/// order. `message` records survive (they are never undone); `undo`/`redo` records never do.
///
/// This is the reference engine's `filtered_actions` (lib/engine/game/base.rb):
/// * `undo` without `action_id` undoes the last surviving non-message action; with
///   `action_id` K it undoes every surviving non-message action after the one whose id is K
///   (K = 0: all of them). The undone actions form one group on a stack.
/// * `redo` restores the last group.
/// * any other action clears the stack (no redo past a new action).
///
/// # Errors
/// An `undo` naming an id that no action has, or a `redo` with nothing to restore.
pub fn filter(actions: &[RawAction]) -> Result<Vec<usize>, Vec<Problem>> {
    filter_entries(actions)
}

/// What undo/redo filtering reads of an action.
pub(crate) trait Entry {
    /// What the action is.
    fn ty(&self) -> ActionType;
    /// Its source id (auto actions have none).
    fn id(&self) -> Option<i64>;
    /// For `undo`: the `action_id` to undo back to, if given.
    fn action_id(&self) -> Option<&Spanned<i64>>;
    /// Where its `type` is written.
    fn kind_span(&self) -> Span;
}

impl Entry for RawAction {
    fn ty(&self) -> ActionType {
        self.ty
    }

    fn id(&self) -> Option<i64> {
        self.id
    }

    fn action_id(&self) -> Option<&Spanned<i64>> {
        self.action_id.as_ref()
    }

    fn kind_span(&self) -> Span {
        self.kind.span
    }
}

/// [`filter`] of any kind of entry.
pub(crate) fn filter_entries<A: Entry>(actions: &[A]) -> Result<Vec<usize>, Vec<Problem>> {
    // The reference scans the whole log for an undo's target and every slot back to it, which
    // is quadratic in a log of many undos. The same result in linear time: the live game
    // actions only ever change at their end (an undo takes off those after its target, a redo
    // puts the last group back on top, a new action goes on top), so they are a stack, and
    // each undo's target is the first action with that id.
    // (id, position of the first action with it), sorted; made at the first undo with a target.
    let mut first_with_id: Option<Vec<(i64, usize)>> = None;
    let mut live: Vec<usize> = Vec::new();
    let mut messages: Vec<usize> = Vec::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut problems = Vec::new();
    for (index, action) in actions.iter().enumerate() {
        match action.ty() {
            ActionType::Undo => {
                let keep = match action.action_id() {
                    Some(k) if k.value == 0 => 0,
                    Some(k) => match target_position(&mut first_with_id, actions, k.value) {
                        // Every live action after the target's position is undone.
                        Some(i) => live.partition_point(|&a| a <= i),
                        None => {
                            problems.push(
                                Problem::new(
                                    ProblemKind::UndoTarget,
                                    k.span,
                                    format!("`undo` goes back to action id {}, which the log does not have", k.value),
                                    "no action has this id",
                                )
                                .with_help("`action_id` must be the id of an earlier action, or 0 to undo everything"),
                            );
                            continue;
                        }
                    },
                    None => live.len().saturating_sub(1),
                };
                groups.push(live.split_off(keep.min(live.len())));
            }
            ActionType::Redo => match groups.pop() {
                Some(group) => live.extend(group),
                None => problems.push(
                    Problem::new(
                        ProblemKind::NothingToRedo,
                        action.kind_span(),
                        "`redo` with nothing undone to restore",
                        "nothing to redo here",
                    )
                    .with_help("a `redo` must follow an `undo` (or another `redo`) with no other action in between"),
                ),
            },
            ActionType::Message => messages.push(index),
            _ => {
                groups.clear();
                live.push(index);
            }
        }
    }
    if problems.is_empty() {
        let mut surviving = live;
        surviving.extend(messages);
        surviving.sort_unstable();
        Ok(surviving)
    } else {
        Err(problems)
    }
}

/// The position of the first action whose id is `id`, looked up in `index` (built on first use).
fn target_position<A: Entry>(
    index: &mut Option<Vec<(i64, usize)>>,
    actions: &[A],
    id: i64,
) -> Option<usize> {
    let index = index.get_or_insert_with(|| {
        let mut ids: Vec<(i64, usize)> = actions
            .iter()
            .enumerate()
            .filter_map(|(i, a)| Some((a.id()?, i)))
            .collect();
        ids.sort_unstable();
        ids.dedup_by_key(|(id, _)| *id);
        ids
    });
    let at = index.partition_point(|(k, _)| *k < id);
    index.get(at).filter(|(k, _)| *k == id).map(|(_, i)| *i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(actions: &str) -> String {
        format!(
            r#"{{"title": "1836Jr30", "players": [{{"id": 1, "name": "A"}}, {{"name": "B"}}], "actions": [{actions}]}}"#
        )
    }

    fn surviving(actions: &str) -> Vec<i64> {
        let src = log(actions);
        let doc = parse("t.json", &src).unwrap();
        filter(&doc.actions)
            .unwrap()
            .into_iter()
            .map(|i| doc.actions[i].id.unwrap())
            .collect()
    }

    fn pass(id: i64) -> String {
        format!(r#"{{"type": "pass", "entity": 1, "entity_type": "player", "id": {id}}}"#)
    }

    #[test]
    fn header_reads_hotseat_players_by_name() {
        let src = log("");
        let doc = parse("t.json", &src).unwrap();
        let ids: Vec<_> = doc.header.players.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["1", "B"]);
    }

    #[test]
    fn undo_without_target_undoes_the_last_action() {
        let a = [
            pass(1),
            pass(2),
            r#"{"type": "undo", "id": 3}"#.into(),
            pass(4),
        ]
        .join(",");
        assert_eq!(surviving(&a), [1, 4]);
    }

    #[test]
    fn undo_redo_restores() {
        let a = [
            pass(1),
            pass(2),
            r#"{"type": "undo", "id": 3}"#.into(),
            r#"{"type": "undo", "id": 4}"#.into(),
            r#"{"type": "redo", "id": 5}"#.into(),
        ]
        .join(",");
        assert_eq!(surviving(&a), [1]);
        let a = [a, r#"{"type": "redo", "id": 6}"#.into()].join(",");
        assert_eq!(surviving(&a), [1, 2]);
    }

    #[test]
    fn undo_to_action_id_and_zero() {
        let a = [
            pass(1),
            pass(2),
            pass(3),
            r#"{"type": "undo", "id": 4, "action_id": 1}"#.into(),
        ]
        .join(",");
        assert_eq!(surviving(&a), [1]);
        let a = [
            pass(1),
            pass(2),
            r#"{"type": "undo", "id": 4, "action_id": 0}"#.into(),
        ]
        .join(",");
        assert_eq!(surviving(&a), Vec::<i64>::new());
    }

    #[test]
    fn a_new_action_clears_the_redo_stack() {
        let a = [
            pass(1),
            pass(2),
            r#"{"type": "undo", "id": 3}"#.into(),
            pass(4),
            r#"{"type": "redo", "id": 5}"#.into(),
        ]
        .join(",");
        let src = log(&a);
        let doc = parse("t.json", &src).unwrap();
        let err = filter(&doc.actions).unwrap_err();
        assert_eq!(err[0].kind, ProblemKind::NothingToRedo);
    }

    #[test]
    fn messages_are_never_undone() {
        let msg = r#"{"type": "message", "entity": 1, "id": 2, "message": "hi"}"#;
        let a = [pass(1), msg.into(), r#"{"type": "undo", "id": 3}"#.into()].join(",");
        assert_eq!(surviving(&a), [2]);
    }

    #[test]
    fn undo_to_unknown_id_is_an_error() {
        let a = [
            pass(1),
            r#"{"type": "undo", "id": 2, "action_id": 77}"#.into(),
        ]
        .join(",");
        let src = log(&a);
        let doc = parse("t.json", &src).unwrap();
        assert_eq!(
            filter(&doc.actions).unwrap_err()[0].kind,
            ProblemKind::UndoTarget
        );
    }

    /// The reference engine's `filtered_actions`, transcribed as it is (quadratic): the
    /// oracle for [`filter`].
    fn reference_filter(actions: &[RawAction]) -> Result<Vec<usize>, Vec<ProblemKind>> {
        let mut slots: Vec<Option<usize>> = vec![None; actions.len()];
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut problems = Vec::new();
        let live = |slot: &Option<usize>| slot.is_some_and(|i| actions[i].kind.value != "message");
        for (index, action) in actions.iter().enumerate() {
            match &*action.kind.value {
                "undo" => {
                    let target = match &action.action_id {
                        Some(k) if k.value == 0 => 0,
                        Some(k) => match actions.iter().position(|a| a.id == Some(k.value)) {
                            Some(i) => i + 1,
                            None => {
                                problems.push(ProblemKind::UndoTarget);
                                continue;
                            }
                        },
                        None => slots[..index].iter().rposition(live).unwrap_or(0),
                    };
                    let mut group = Vec::new();
                    for slot in slots.iter_mut().take(index).skip(target) {
                        if live(slot) {
                            group.extend(slot.take());
                        }
                    }
                    groups.push(group);
                }
                "redo" => match groups.pop() {
                    Some(group) => {
                        for i in group {
                            slots[i] = Some(i);
                        }
                    }
                    None => problems.push(ProblemKind::NothingToRedo),
                },
                "message" => slots[index] = Some(index),
                _ => {
                    groups.clear();
                    slots[index] = Some(index);
                }
            }
        }
        if problems.is_empty() {
            Ok(slots.into_iter().flatten().collect())
        } else {
            Err(problems)
        }
    }

    fn raw(kind: &str, id: Option<i64>, action_id: Option<i64>) -> RawAction {
        RawAction {
            span: Span::default(),
            id,
            kind: Spanned::new(Cow::Owned(kind.to_string()), Span::default()),
            ty: ActionType::of(kind),
            action_id: action_id.map(|k| Spanned::new(k, Span::default())),
            auto_actions: Vec::new(),
            val: Val::ROOT,
        }
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Any mix of actions, messages, undos (to the last action, to an id, possibly
        /// repeated or missing, to the start) and redos: the same survivors and the same
        /// problems as the reference's algorithm.
        #[test]
        fn filter_agrees_with_the_reference(
            entries in prop::collection::vec((0..6u8, 0..12i64), 0..60)
        ) {
            let actions: Vec<RawAction> = entries
                .iter()
                .map(|&(kind, k)| match kind {
                    0 | 1 => raw("pass", Some(k), None),
                    2 => raw("message", Some(k), None),
                    3 => raw("undo", Some(k), None),
                    4 => raw("undo", Some(k), Some(k / 2)),
                    _ => raw("redo", Some(k), None),
                })
                .collect();
            let ours = filter(&actions).map_err(|ps| ps.iter().map(|p| p.kind).collect());
            prop_assert_eq!(ours, reference_filter(&actions));
        }
    }
}
