// The Tengen wire protocol, version 1: TypeScript declarations of every frame.
// Generated from tengen-protocol's types (through tengen.schema.json): do
// not edit; protocol/README.md says how to regenerate.
//
// Client frames are declared as the server reads them, server frames as
// the server writes them. Where the two forms of a type differ (fields
// a client may leave out to take their default), the client's is
// `…Input`; any value of the plain type is a valid input too.
// A client ignores message types and fields it does not know.

/**
 * A message with its optional request id: `{"type": ..., ...fields, "id": n}`.
 */
export type ClientFrame = {
  /**
   * A number of the client's choosing (below 2^53 for JavaScript's sake),
   * echoed in the reply.
   */
  id?: number;
} & ClientMsg;

/**
 * A client message. The wire form is a map with `"type"` set to the snake_case
 * variant name and the fields below; the envelope adds `"id"`.
 */
export type ClientMsg =
  /** Opens the session; answered by `welcome` (or `unsupported_version`). */
  | ({ type: "hello" } & Hello)
  /**
   * Application-level ping, answered by `pong` (WebSocket pings are answered
   * by the WebSocket layer; this one also measures the server's queueing and
   * gives its wall clock).
   */
  | { type: "ping" }
  /**
   * Answered by `rooms` (the full list), then `lobby_update` messages until
   * `lobby_unsubscribe`.
   */
  | { type: "lobby_subscribe" }
  /** Answered by `lobby_unsubscribed`. */
  | { type: "lobby_unsubscribe" }
  /** Answered by `rooms`. */
  | { type: "list_rooms" }
  /**
   * Opens a room with the creator in seat `first`; answered by `room_created`.
   */
  | {
      type: "create_room";
      config: GameConfigInput;
      /** Table chat on (`true`, the default) or off for this room's games. */
      chat?: boolean;
      /**
       * Shown in the lobby: its NFKC form, without invisible or
       * direction-changing characters, not one that looks like another
       * account's name or like `guest-<n>` (`invalid_name`).
       */
      name?: string;
      /**
       * Listed in the lobby (`true`, the default), or joinable only by its id.
       * @default true
       */
      public?: boolean;
      /**
       * A rated game (feature `queue`): both seats must be accounts
       * (`login_required` otherwise). `false` (casual) by default.
       */
      rated?: boolean;
    }
  /**
   * Takes the free seat; answered by `joined`, after which the game starts and
   * both players get a `table_snapshot`.
   */
  | { type: "join_room"; room: RoomId }
  /** Leaves a room you sit in (not while its game runs); answered by `left`. */
  | { type: "leave_room"; room: RoomId }
  /**
   * Withdraws the room you created, before anyone joined; answered by
   * `room_cancelled`.
   */
  | { type: "cancel_room"; room: RoomId }
  /**
   * Watches a table: answered by `table_snapshot`, then every `table_event`.
   * Watching a watched table sends a fresh snapshot.
   */
  | {
      type: "watch";
      table: TableId;
      /**
       * Resuming: the last `seq` you have of this table. If the table still
       * keeps every event after it, they are sent again in order and the reply
       * is `replayed`; otherwise the reply is a `table_snapshot`.
       */
      since?: number;
    }
  /** Answered by `unwatched`. */
  | { type: "unwatch"; table: TableId }
  /**
   * Asks the referee to apply `action` for your seat. The resulting
   * `table_event`s go to everyone at the table, then you get `acted`. A
   * `claim_forbidden` must name its `point` (`bad_request` without one).
   */
  | { type: "act"; table: TableId; action: Action }
  /**
   * Your opponent is away past the grace (`player_status` with `grace_ms: 0`
   * and `after_grace: claim`): claim the win, or with `draw`, call the game a
   * draw. Its `game_over` event goes to everyone at the table, then you get
   * `acted`. Refused with `not_absent` when no such claim is open. Rather
   * wait: send nothing (the absent player's clock runs on).
   */
  | { type: "claim_absence"; table: TableId; draw?: boolean }
  /** Answered by `table_snapshot` (you must sit at or watch the table). */
  | { type: "snapshot"; table: TableId }
  /**
   * Says something at a table: players talk to players, spectators to
   * spectators (spectators must not coach a player). Answered by the `chat`
   * message itself (with your id); the others of your channel get it as a
   * push.
   */
  | { type: "chat"; table: TableId; text: string }
  /**
   * After the game: offers (or, when the opponent offered, accepts) a rematch.
   * Answered by `rematch_offered`, which the opponent gets too, wherever its
   * connection is (the lobby included); when both have offered, a new game
   * starts at a new table with the opener switched, in the same room (or a new
   * one like it, if both players left it). An offer stands while the finished
   * table stays open.
   */
  | { type: "rematch"; table: TableId }
  /**
   * Declines the opponent's rematch offer, or withdraws your own: answered by
   * `rematch_cancelled`, which the opponent gets too.
   */
  | { type: "decline_rematch"; table: TableId }
  /**
   * Challenges the player online under `player` (its exact name) to a game: a
   * private room is created for you as with `create_room` (answered by
   * `room_created`), and the player is sent `challenged`. They accept with
   * `join_room` or refuse with `decline_challenge`; you may withdraw with
   * `cancel_room`.
   */
  | {
      type: "challenge";
      player: string;
      config: GameConfigInput;
      /** Table chat on (`true`, the default) or off. */
      chat?: boolean;
      /**
       * A rated game (feature `accounts`): both players must be accounts, and
       * the result updates their ratings as a game from the rated queue does.
       * `false`, the default: casual.
       */
      rated?: boolean;
    }
  /**
   * Refuses a challenge; answered by `room_cancelled` (reason `declined`),
   * which the challenger gets too.
   */
  | { type: "decline_challenge"; room: RoomId }
  /**
   * Creates an account and logs this session in to it (feature `accounts`);
   * answered by `registered`.
   */
  | { type: "register"; name: string; password: string }
  /** Logs this session in to an account; answered by `logged_in`. */
  | { type: "login"; name: string; password: string }
  /**
   * Logs out: revokes the login token and makes this session a guest again;
   * answered by `logged_out`. Every other session that holds the same token is
   * closed with 4007.
   */
  | { type: "logout" }
  /**
   * Logs the account out everywhere: revokes every login token it has (those
   * of other devices too), closes every other session of it on every node with
   * 4007, and makes this session a guest again; answered by `logged_out`.
   */
  | { type: "logout_everywhere" }
  /**
   * Waits for a rated opponent for `config` (feature `queue`); answered by
   * `queued`, then a `matched` push when paired.
   */
  | {
      type: "queue";
      config: GameConfigInput;
      /**
       * A person's consent to be paired with a bot account (`false`, the
       * default: never). A bot's own entry ignores it: bots are paired with
       * bots and with people who said yes.
       */
      bots?: boolean;
    }
  /**
   * Makes this account a bot account, for good (feature `bots`): allowed only
   * before its first game; answered by `became_bot`.
   */
  | { type: "become_bot" }
  /**
   * A casual game against the server's own bot (feature `computer`) at `level`
   * of its ladder (1, a beginner's opponent, to 5, the strongest): opens a
   * private room of `config` with you in seat `first`, answered by
   * `room_created`; the computer then takes the other seat and the game starts
   * as any room's does. One-board rule sets only. `unavailable` (with
   * `retry_after_ms`) while the server plays as many such games as it allows
   * at once.
   */
  | {
      type: "play_computer";
      config: GameConfigInput;
      level: number;
      /**
       * The colour you start with: black opens (under an opening rule, the
       * tentative black who lays the opening; a swap may change it). Absent:
       * drawn by lot, as in any room.
       */
      colour?: Color;
    }
  /**
   * A bot account's challenge filters (replacing earlier ones; kept while the
   * server runs); answered by `bot_filters_set`.
   */
  | { type: "set_bot_filters"; filters: BotFiltersInput }
  /** Leaves the queue; answered by `unqueued`. */
  | { type: "unqueue" }
  /** A family's leaderboard; answered by `leaderboard`. */
  | {
      type: "leaderboard";
      family: RatingFamily;
      /**
       * Bot accounts' leaderboard instead of people's (feature `bots`;
       * `false`, the default: people only).
       */
      bots?: boolean;
    }
  /** A registered player's ratings; answered by `profile`. */
  | { type: "profile"; player: string }
  /**
   * A player's finished games, newest first, a page at a time (`before`: the
   * `finished_ms` of the last game of the previous page); answered by
   * `history`.
   */
  | { type: "history"; player: string; before?: number }
  /**
   * A game's record in `format`; answered by `game_record`. A game still
   * running is answered by its table (for its players and spectators): the
   * record so far, without a result.
   */
  | { type: "game_record"; game: TableId; format: RecordFormat }
  /**
   * A finished game's forced wins, move by move (feature `analysis`): for each
   * move, whether the side to move had a VCF (and, with `vct`, a VCT) and
   * whether the move played kept it; answered by `game_analysis`. The search
   * runs on the server with a fixed budget per position, a few games at a time
   * server-wide (more are refused as `unavailable` with `retry_after_ms`).
   */
  | { type: "analyze_game"; game: TableId; vct?: boolean }
  /**
   * The tables where the logged-in account's sessions sit, whichever
   * connection (or none) holds them now, each with the session's resume token
   * (feature `accounts`); answered by `my_tables`. Guests are refused with
   * `login_required`.
   */
  | { type: "my_tables" }
  /** A moderator's or an admin's action (`moderation`). */
  | ({ type: "moderate" } & ModRequest)
  /**
   * Blocks a player: never paired with you, their challenges and chat never
   * reach you. Answered by `blocks`.
   */
  | { type: "block"; player: string }
  /** Lifts a block. Answered by `blocks`. */
  | { type: "unblock"; player: string }
  /** Reports a player (and perhaps a game) to the moderators. */
  | {
      type: "report";
      player: string;
      reason: ReportReason;
      text: string;
      game?: TableId;
    }
  /** Creates a tournament you organise; answered by `tournament_created`. */
  | { type: "create_tournament"; tournament: TournamentSpecInput }
  /** Answered by `tournament_list`: every event the server keeps. */
  | { type: "tournaments" }
  /** Answered by `tournament_info`: the event in full. */
  | { type: "tournament"; tournament: string }
  /**
   * Enters you (an account, within the entry limits); answered by
   * `tournament_joined`.
   */
  | { type: "join_tournament"; tournament: string }
  /**
   * Leaves the event (after its start your remaining games are forfeited);
   * answered by `tournament_withdrawn`.
   */
  | { type: "withdraw_tournament"; tournament: string }
  /**
   * The organiser starts the event now (round 1 is paired); answered by
   * `tournament_started`.
   */
  | { type: "start_tournament"; tournament: string }
  /**
   * Answered by `tournament_info`, then `tournament_update` at every change
   * until `unwatch_tournament`.
   */
  | { type: "watch_tournament"; tournament: string }
  /** Answered by `tournament_unwatched`. */
  | { type: "unwatch_tournament"; tournament: string }
  /** Answered by `tournament_exported`: the crosstable and a TRF file. */
  | { type: "tournament_export"; tournament: string }
  /**
   * The organiser records a game's result (as an arbiter: a game played
   * elsewhere, an adjudication, a forfeit); answered by `tournament_recorded`.
   * `board` and `round` count from 1, `game` (within a knockout match) from 0.
   */
  | {
      type: "tournament_result";
      tournament: string;
      round: number;
      board: number;
      result: ReportedResult;
      /** @default 0 */
      game?: number;
    }
  /**
   * The organiser ends a running event now (its current round must be over):
   * no more rounds, the standings are final. Answered by `tournament_ended`.
   */
  | { type: "end_tournament"; tournament: string }
  /**
   * The organiser pairs a Swiss round by hand (when the rules leave none, see
   * `tournament_stalled`): `boards` as [first seat, second seat] player names,
   * every player still in the event placed once. Answered by
   * `tournament_paired`.
   */
  | {
      type: "pair_tournament";
      tournament: string;
      round: number;
      boards: ([string, string])[];
      bye?: string;
    }
  /**
   * The opening explorer (feature `explorer`): the position after `moves`
   * (from the empty board, in play order, in any orientation) among the
   * finished games of `rule_set` and `opening` on `board_size` (the rule set's
   * default when absent), counted over the games `filter` admits; answered by
   * `explorer`.
   */
  | {
      type: "explore";
      rule_set: RuleSet;
      opening: OpeningInput;
      board_size?: number;
      /** @default {} */
      filter?: ExplorerFilter;
      /** @default [] */
      moves?: Point[];
    }
  /**
   * A puzzle to solve (feature `puzzles`): one near your puzzle rating that
   * you have not tried, of `theme` if given; answered by `puzzle`.
   */
  | { type: "next_puzzle"; theme?: PuzzleTheme }
  /**
   * A puzzle by id (a game's `game_puzzles` lists them); answered by `puzzle`.
   */
  | { type: "puzzle"; puzzle: string }
  /** Today's puzzle, the same for everyone (UTC days); answered by `puzzle`. */
  | { type: "daily_puzzle" }
  /**
   * Your move in a try (`attempt`, from `puzzle`): judged by the referee and
   * the solver, answered by `puzzle_step` with the defender's reply, or the
   * end of the try.
   */
  | { type: "puzzle_move"; attempt: string; point: Point }
  /** The puzzles made from a finished game; answered by `game_puzzles`. */
  | { type: "game_puzzles"; game: TableId }
  /**
   * A forbidden-point exercise (feature `trainer`); answered by
   * `trainer_position`.
   */
  | { type: "trainer_next" }
  /**
   * Your answer to exercise `position`: every point you judge forbidden for
   * black, with its kind; answered by `trainer_verdict`.
   */
  | { type: "trainer_answer"; position: string; marks: ForbiddenPoint[] };

/** The `ClientMsg` of one `type`: `ClientMsgOf<"act">`. */
export type ClientMsgOf<T extends ClientMsg["type"]> = Extract<ClientMsg, { type: T }>;

/**
 * A message with its optional request id: `{"type": ..., ...fields, "id": n}`.
 */
export type ServerFrame = {
  /** The `id` of the request this frame answers; absent on pushes. */
  id?: number;
} & ServerMsg;

/**
 * A server message. The wire form is a map with `"type"` set to the snake_case
 * variant name and the fields below; the envelope adds `"id"` to replies.
 */
export type ServerMsg =
  /** Reply to `hello`. */
  | ({ type: "welcome" } & Welcome)
  /** Reply to any request that was refused (see `ErrorCode`). */
  | ({ type: "error" } & ErrorBody)
  /** Reply to `ping`, with the server's wall clock (Unix milliseconds). */
  | { type: "pong"; time_ms: number }
  /**
   * Reply to `list_rooms` and `lobby_subscribe`: open rooms and live games, at
   * most 500.
   */
  | { type: "rooms"; rooms: RoomInfo[]; truncated: boolean }
  /** Push to lobby subscribers, coalesced (at most about one a second). */
  | ({ type: "lobby_update" } & LobbyUpdate)
  /** Reply to `lobby_unsubscribe`. */
  | { type: "lobby_unsubscribed" }
  /** Reply to `create_room`. */
  | { type: "room_created"; room: RoomId; seat: Seat }
  /** Reply to `join_room`. */
  | { type: "joined"; room: RoomId; seat: Seat }
  /** Reply to `leave_room`. */
  | { type: "left"; room: RoomId }
  /**
   * Reply to `cancel_room`, or a push to the creator when the server cancels
   * the room.
   */
  | { type: "room_cancelled"; room: RoomId; reason: CancelReason }
  /**
   * Reply to `watch` and `snapshot`; a push to both players when their game
   * starts.
   */
  | ({ type: "table_snapshot" } & TableSnapshot)
  /** Push to a table's players and spectators. */
  | ({ type: "table_event" } & TableEvent)
  /**
   * Reply to `act`, after the events the action produced: `seq` is the last of
   * them.
   */
  | { type: "acted"; table: TableId; seq: number }
  /** Push: the table's spectator count changed (coalesced). */
  | { type: "spectators"; table: TableId; count: number }
  /** Reply to `unwatch`. */
  | { type: "unwatched"; table: TableId }
  /**
   * Reply to `watch` with `since`, after the missed events it sent again:
   * `seq` is the table's last.
   */
  | { type: "replayed"; table: TableId; since: number; seq: number }
  /**
   * Push to a table's players and spectators: a player's connection was lost
   * (`connected: false`) or is back. While away: `grace_ms` is the time left
   * to come back (its clock keeps running meanwhile), and `after_grace` what
   * happens then (`AfterGrace`). When the grace is over and the opponent may
   * claim, it comes again with `grace_ms: 0` (`after_grace: claim`): offer
   * "claim the win", "call a draw" and "wait" (`claim_absence`). It comes
   * again, too, when the other player's coming or going changes `after_grace`.
   * No `grace_ms`: a correspondence game, where nothing is counted.
   */
  | {
      type: "player_status";
      table: TableId;
      seat: Seat;
      connected: boolean;
      after_grace?: AfterGrace;
      grace_ms?: number;
    }
  /**
   * Push to a table's players and spectators: its clocks stopped (`paused`
   * says why) or run again (`paused` absent). `clocks` are the figures they
   * stand at or restart from; render them without counting down while paused.
   */
  | {
      type: "table_paused";
      table: TableId;
      clocks: ClockSnapshot | null;
      paused?: PauseReason;
    }
  /** A chat message, to its channel (the sender gets it as the reply). */
  | {
      type: "chat";
      table: TableId;
      channel: ChatChannel;
      from: Player;
      text: string;
    }
  /**
   * Reply to `rematch`, and a push to the opponent wherever its connection is
   * (at the table or in the lobby): `seat` offers (or accepts) a rematch. The
   * push names who offers (`from`), the room and its configuration, so a lobby
   * can show it; accept with `rematch` on `table`, decline with
   * `decline_rematch`.
   */
  | {
      type: "rematch_offered";
      table: TableId;
      seat: Seat;
      config?: GameConfig;
      from?: Player;
      room?: RoomId;
    }
  /**
   * Reply to `decline_rematch`, and a push to the other player (or to both,
   * `seat` absent, when the finished table closes with an offer standing): the
   * rematch offers of `table` are gone.
   */
  | {
      type: "rematch_cancelled";
      table: TableId;
      reason: RematchCancel;
      seat?: Seat;
    }
  /**
   * Push to the old table's players and spectators: the rematch runs at
   * `rematch` (its `table_snapshot` follows for the players).
   */
  | {
      type: "rematch_started";
      table: TableId;
      rematch: TableId;
      room: RoomId;
    }
  /**
   * Push: `from` challenges you to a game in the private room `room` with this
   * configuration. Accept with `join_room`, refuse with `decline_challenge`.
   */
  | {
      type: "challenged";
      room: RoomId;
      from: Player;
      config: GameConfig;
      /** A rated challenge (absent: casual). */
      rated?: boolean;
    }
  /**
   * Reply to `register`: the account exists and this session is logged in to
   * it.
   */
  | ({ type: "registered" } & LoggedIn)
  /** Reply to `login`. */
  | ({ type: "logged_in" } & LoggedIn)
  /**
   * Reply to `logout`: the token is revoked and you are `player`, a guest,
   * again.
   */
  | { type: "logged_out"; player: Player }
  /** Reply to `queue`: you wait for an opponent for `config`. */
  | { type: "queued"; config: GameConfig }
  /** Reply to `unqueue`. */
  | { type: "unqueued" }
  /** Reply to `become_bot`: you are `player` (`bot: true`) from now on. */
  | { type: "became_bot"; player: Player }
  /** Reply to `set_bot_filters`: the filters now in force. */
  | { type: "bot_filters_set"; filters: BotFilters }
  /**
   * Push to both players the matchmaker paired: a rated game in `room` at
   * `table` against `opponent`, you in `seat`. The table's `table_snapshot`
   * follows. Also pushed when a tournament's game starts: then `tournament`
   * says which game it is (rated or not as the tournament is).
   */
  | {
      type: "matched";
      room: RoomId;
      table: TableId;
      seat: Seat;
      opponent: Player;
      config: GameConfig;
      tournament?: TournamentGame;
    }
  /** Reply to `leaderboard`. */
  | ({ type: "leaderboard" } & Leaderboard)
  /** Reply to `profile`. */
  | ({ type: "profile" } & Profile)
  /**
   * Reply to `history`: a page of `player`'s finished games, newest first;
   * `more`: older games exist (ask with `before` set to the last one's
   * `finished_ms`).
   */
  | {
      type: "history";
      player: string;
      games: GameSummary[];
      more?: boolean;
    }
  /** Reply to `game_record`. */
  | ({ type: "game_record" } & RecordExport)
  /** Reply to `analyze_game`. */
  | ({ type: "game_analysis" } & GameAnalysis)
  /** Reply to `my_tables`: where the account's sessions sit. */
  | { type: "my_tables"; tables: SeatedTable[] }
  /** A moderator's action was done (and written to the audit log). */
  | { type: "moderated"; action: string; target: string }
  /**
   * Push to everyone seated in or watching room `room`: a moderator closed it
   * (`reason`); it is gone from the lobby, and a game in it was aborted.
   */
  | { type: "room_closed"; room: RoomId; reason: string }
  /**
   * Push to the players and spectators of `table`, after its final `game_over`
   * event: a moderator aborted the game (`reason`).
   */
  | { type: "game_aborted"; table: TableId; reason: string }
  /** The audit log, newest first (reply to `moderate` `audit_log`). */
  | { type: "audit_log"; entries: AuditItem[] }
  /** The open reports, oldest first (reply to `moderate` `reports`). */
  | { type: "reports"; reports: ReportItem[] }
  /**
   * The groups of accounts whose names look alike, each two or more names
   * (reply to `moderate` `lookalikes`; at most 500 groups).
   */
  | { type: "lookalikes"; groups: string[][] }
  /** The players you block now (reply to `block` and `unblock`). */
  | { type: "blocks"; players: string[] }
  /** Your report is queued for the moderators. */
  | { type: "reported"; report: string }
  /** Reply to `create_tournament`. */
  | { type: "tournament_created"; tournament: TournamentSummary }
  /** Reply to `tournaments`: newest first. */
  | { type: "tournament_list"; tournaments: TournamentSummary[] }
  /** Reply to `tournament` and `watch_tournament`. */
  | { type: "tournament_info"; tournament: TournamentView }
  /** Reply to `join_tournament`. */
  | { type: "tournament_joined"; tournament: string }
  /** Reply to `withdraw_tournament`. */
  | { type: "tournament_withdrawn"; tournament: string }
  /** Reply to `start_tournament`. */
  | { type: "tournament_started"; tournament: string }
  /**
   * Push to a tournament's watchers at every change (entries, pairings,
   * results).
   */
  | { type: "tournament_update"; tournament: TournamentView }
  /** Reply to `unwatch_tournament`. */
  | { type: "tournament_unwatched"; tournament: string }
  /** Reply to `tournament_export`. */
  | {
      type: "tournament_exported";
      tournament: string;
      crosstable: string;
      trf: string;
    }
  /** Reply to `tournament_result`. */
  | { type: "tournament_recorded"; tournament: string }
  /** Reply to `end_tournament`. */
  | { type: "tournament_ended"; tournament: string }
  /** Reply to `pair_tournament`. */
  | { type: "tournament_paired"; tournament: string; round: number }
  /**
   * Push to the organiser and the players (connected to the directing node)
   * when a round cannot be paired: no pairing satisfies the rules. The event
   * waits for the organiser: `pair_tournament` or `end_tournament`. Also in
   * the view as `stalled`.
   */
  | {
      type: "tournament_stalled";
      tournament: string;
      round: number;
      reason: string;
    }
  /** Reply to `explore`. */
  | ({ type: "explorer" } & ExplorerView)
  /** Reply to `next_puzzle`, `puzzle` and `daily_puzzle`: a new try. */
  | ({ type: "puzzle" } & PuzzleView)
  /** Reply to `puzzle_move`. */
  | ({ type: "puzzle_step" } & PuzzleStep)
  /** Reply to `game_puzzles`, in move order. */
  | { type: "game_puzzles"; game: TableId; puzzles: PuzzleRef[] }
  /** Reply to `trainer_next`. */
  | ({ type: "trainer_position" } & TrainerPosition)
  /** Reply to `trainer_answer`. */
  | ({ type: "trainer_verdict" } & TrainerVerdict);

/** The `ServerMsg` of one `type`: `ServerMsgOf<"table_event">`. */
export type ServerMsgOf<T extends ServerMsg["type"]> = Extract<ServerMsg, { type: T }>;

/**
 * Why the server closed the WebSocket (the close frame's code; the reason text
 * is for people).
 */
export type CloseCode =
  /** The exchange is over (the client closed, or a session ended normally). */
  | 1000
  /**
   * The server is shutting down or restarting; reconnect (with backoff) to
   * another or the same node.
   */
  | 1001
  /**
   * The server is restarting (it stopped on SIGTERM or SIGINT after saving
   * everything); reconnect with backoff and resume with the token: live games
   * continue where they were.
   */
  | 1012
  /**
   * The WebSocket protocol itself was broken (bad framing, continuation
   * errors).
   */
  | 1002
  /**
   * A frame of the other kind than the connection's encoding after the
   * handshake (binary on a JSON connection or text on a MessagePack one).
   */
  | 1003
  /**
   * Policy violation; the client kept sending after being told `rate_limited`.
   */
  | 1008
  /**
   * A message larger than 65536 bytes, which the server does not even read. (A
   * frame over `max_frame_bytes` but under this bound only gets a `too_large`
   * error.)
   */
  | 1009
  /** An internal error ended the connection. Reconnect (with backoff). */
  | 1011
  /** No `hello` within 10000 ms of connecting. */
  | 4001
  /**
   * The client read too slowly and its outbound queue filled; the server cut
   * it off rather than slow a table. Reconnect and resync from a snapshot.
   */
  | 4002
  /**
   * `hello.version` is not supported (after an `unsupported_version` error
   * naming the supported versions).
   */
  | 4003
  /**
   * Nothing was received (no message, no WebSocket pong) for
   * `welcome.limits.idle_timeout_ms`. Reconnect (with backoff).
   */
  | 4004
  /**
   * This session was resumed on another connection (`hello.resume` with its
   * token); this one is closed. Do not reconnect with the same token from
   * here.
   */
  | 4005
  /** The account was banned (its logins are refused with `banned`). */
  | 4006
  /**
   * The login token this session was the account with was revoked (a `logout`
   * on another connection with the same token, or `logout_everywhere`). The
   * session is over and cannot be resumed; log in again.
   */
  | 4007;

/**
 * Something a seat asks the machine to do (docs/rules.md §3–§5). Unknown
 * fields are rejected on input, for every action (read through `WireAction`);
 * `offer_draw` may be left out.
 */
export type Action =
  /**
   * Place a stone of the colour to move; `offer_draw` offers a draw with the
   * move. `board` is the board's index, 0 or 1 in twin rooms (two boards,
   * docs/rules.md §9); it is 0, and left out on the wire, everywhere else.
   */
  | { type: "place"; point: Point; board?: number; offer_draw?: boolean }
  /**
   * Pass instead of placing (not before five stones stand); counts as a move.
   */
  | { type: "pass"; offer_draw?: boolean }
  /** Take the other colour when a swap is offered (counts as a move). */
  | { type: "swap" }
  /** Keep one's colour when a swap is offered. */
  | { type: "keep" }
  /**
   * Declare how many fifth-move offers black will make (Yamaguchi's opener,
   * Soosõrv's and Jonsson's white).
   */
  | { type: "declare_offers"; count: number }
  /** Black's fifth-move offers, all at once (they count as one move). */
  | { type: "offer_fifths"; points: OfferSet }
  /** White keeps the offer at `point` as black 5; the others are removed. */
  | { type: "keep_fifth"; point: Point }
  /** Taraguchi's choice after move 4. */
  | { type: "choose_option"; option: TaraguchiOption }
  /**
   * Swap2: the second player places white 4 and black 5 at once (the opener
   * then chooses the colour); Super Sakata's option (c): the chooser places a
   * white and a black stone (the other seat then chooses).
   */
  | { type: "place_two"; white: Point; black: Point }
  /** Offer a draw right after one's own move, before the opponent acts. */
  | { type: "offer_draw" }
  | { type: "accept_draw" }
  | { type: "decline_draw" }
  /**
   * White claims that black's stone at `point` is forbidden (claim rooms only,
   * docs/rules.md §3): black's last stone while white has not moved since, or
   * any black stone that made an overline. A claim names its point; `point` is
   * absent only in records from before claims named it, read as "the stone the
   * referee finds" (black's last, else any overline).
   */
  | { type: "claim_forbidden"; point?: Point }
  /**
   * Twin rooms (docs/rules.md §9): end the turn after its first stone (a turn
   * is one stone or two, the player's choice). Counts as the move that presses
   * the clock.
   */
  | { type: "end_turn" }
  /**
   * Ask the opponent to take back one's last move (rooms that allow takebacks:
   * casual ones); the opponent's later moves, if any, go too.
   */
  | { type: "request_takeback" }
  /** Agree to the opponent's takeback request: the moves go. */
  | { type: "accept_takeback" }
  /** Refuse the opponent's takeback request. */
  | { type: "decline_takeback" }
  | { type: "resign" }
  /** Cancel the game, unrated (while at least one seat has not acted). */
  | { type: "abort" };

/**
 * The kind of an `Action`, without its data: what a prompt lists as allowed.
 */
export type ActionKind = "place" | "pass" | "swap" | "keep" | "offer_draw" | "accept_draw" | "decline_draw" | "claim_forbidden" | "resign" | "abort" | "declare_offers" | "offer_fifths" | "keep_fifth" | "choose_option" | "place_two" | "end_turn" | "request_takeback" | "accept_takeback" | "decline_takeback";

/**
 * What happens when an away player's grace is over (docs/rules.md §4). Nothing
 * ends a game by itself but the clock, except where nobody is there to claim.
 */
export type AfterGrace =
  /**
   * The opponent may then claim the win or call a draw (`claim_absence`), or
   * wait; the absent player's clock runs on.
   */
  | "claim"
  /**
   * The server gives the opponent the win: nobody is there to claim (an
   * untimed room, a tournament game, an opponent that is a bot).
   */
  | "win"
  /**
   * Both players are away and fewer than two moves stand: the game is aborted.
   */
  | "abort"
  /** Both players are away in an untimed game: it is drawn. */
  | "draw"
  /** Both players are away: the clocks decide, nothing else. */
  | "clock";

/** One entry of the audit log. */
export interface AuditItem {
  at_ms: number;
  by: string;
  action: string;
  target: string;
  reason: string;
}

/**
 * A player away from the table: its connection is lost and its clock (if it is
 * to move) runs on.
 */
export interface Away {
  seat: Seat;
  /** What happens when the grace is over (absent with `grace_ms`). */
  after_grace?: AfterGrace;
  /**
   * The time left of the grace for coming back, in milliseconds, as of the
   * message; 0 once it is over. Absent in correspondence games, where being
   * away is normal and nothing is counted.
   */
  grace_ms?: number;
}

/** One board of a round. */
export interface BoardView {
  board: number;
  /** The first seat of the match's first game (a bye: the player). */
  first: string;
  /**
   * Each game's result from `first`'s side: `1-0`, `0-1`, `½-½`, `+-`, `-+`
   * (forfeits), `--` (both).
   */
  games?: string[];
  /** The match is over. */
  over?: boolean;
  /** Absent: a bye. */
  second?: string;
  /** The table of the game being played now, if any. */
  table?: TableId;
}

/**
 * What challenges a bot account takes. An empty list means any; a field left
 * out takes its default (everything allowed).
 */
export interface BotFilters {
  /** Casual challenges (`rated: false`). */
  casual: boolean;
  /** Rated challenges (`rated: true`). */
  rated: boolean;
  /** Challenges from people. */
  humans: boolean;
  /** Challenges from other bots. */
  bots: boolean;
  /**
   * The most games it plays at once (absent: 1, as a person); the server
   * bounds it and answers the cap in force.
   */
  max_games?: number;
  /** The rule sets it plays (empty: all). */
  rule_sets?: RuleSet[];
  /** The kinds of time control it plays (empty: all). */
  time_kinds?: TimeKind[];
}

/**
 * What challenges a bot account takes. An empty list means any; a field left
 * out takes its default (everything allowed).
 */
export interface BotFiltersInput {
  /**
   * Challenges from other bots.
   * @default true
   */
  bots?: boolean;
  /**
   * Casual challenges (`rated: false`).
   * @default true
   */
  casual?: boolean;
  /**
   * Challenges from people.
   * @default true
   */
  humans?: boolean;
  /**
   * The most games it plays at once (absent: 1, as a person); the server
   * bounds it and answers the cap in force.
   */
  max_games?: number;
  /**
   * Rated challenges (`rated: true`).
   * @default true
   */
  rated?: boolean;
  /** The rule sets it plays (empty: all). */
  rule_sets?: RuleSet[];
  /** The kinds of time control it plays (empty: all). */
  time_kinds?: TimeKind[];
}

/** Why a room went away before its game started. */
export type CancelReason =
  /** Its creator sent `cancel_room` (or left it). */
  | "by_creator"
  /** Its creator disconnected. */
  | "creator_gone"
  /** Nobody joined in time. */
  | "expired"
  /** The server is shutting down. */
  | "shutdown"
  /** The challenged player declined (`decline_challenge`). */
  | "declined";

/** Who may read a chat message: the two players, or the spectators. */
export type ChatChannel = "players" | "spectators";

/**
 * Both clocks as a client renders them: each seat's time as of the moment of
 * the event, and whose clock is running from that moment on.
 */
export interface ClockSnapshot {
  running: Seat | null;
  first: SeatClock;
  second: SeatClock;
}

/** A stone colour. */
export type Color = "black" | "white";

/** How a game ended, by colour. */
export type ColorResult = "black" | "draw" | "white";

/** One round of a crosstable line. */
export interface CrossCell {
  /**
   * `1` won, `=` drawn, `0` lost, `+` won by forfeit, `-` lost by forfeit, `U`
   * a full-point bye, `H` a half-point bye, `Z` absent, empty while the game
   * is played.
   */
  result: string;
  /**
   * The opponent's place in the crosstable (its line's number, from 1); none
   * for a bye or an absence.
   */
  opponent?: number;
  /** The seat held in the round's (first) game: `first` is black. */
  seat?: Seat;
}

/** One player's line of the crosstable, in standings order. */
export interface CrossRow {
  /** The standings' rank (tied players share one). */
  rank: number;
  name: string;
  rating: number;
  /** One per round (an arena has none). */
  rounds: CrossCell[];
  /** Points as text, as in the standings. */
  points: string;
  tie_breaks: TieBreakValue[];
  withdrawn?: boolean;
}

/**
 * Draw-offer limits (docs/rules.md §5). The national rules' limit that a
 * player's offers may exceed the opponent's by at most two always applies;
 * these are the room's extra limits.
 */
export interface DrawPolicy {
  /**
   * An offer not answered within this time lapses (absent: it stands until
   * answered or declined by a move).
   */
  answer_ms?: number;
  /** At most this many offers per player and game (absent: no cap). */
  max_offers?: number;
}

/** Who may enter. */
export interface EntryLimits {
  /** Accounts only (a rated event always is). */
  accounts_only?: boolean;
  /** Bot accounts may join. */
  bots?: boolean;
  /** The most players (at most the server's limit). */
  max_players?: number;
  /** The highest. */
  max_rating?: number;
  /** The lowest rating (in the event's rating family) that may join. */
  min_rating?: number;
}

/** The body of an `error` message. */
export interface ErrorBody {
  code: ErrorCode;
  /** For people and logs; wording may change at any time. */
  message: string;
  /** With `banned`: the ban's reason and end. */
  ban?: Sanction;
  /** With code `game`: the referee's refusal. */
  game_error?: GameError;
  /**
   * With code `rate_limited`: how long until a message is accepted again; with
   * `unavailable` from `analyze_game` (every analysis slot busy): when to ask
   * again.
   */
  retry_after_ms?: number;
  /** With code `unsupported_version`: what the server speaks. */
  supported?: Versions;
}

/** Why a request was refused. The wire form is the snake_case name. */
export type ErrorCode =
  /**
   * The frame could not be decoded at all: not JSON / MessagePack, not a map,
   * no string `type`, nesting too deep, or trailing bytes.
   */
  | "bad_frame"
  /**
   * The frame is a map whose `type` this server does not know (perhaps a newer
   * or reserved message; see `welcome.features`).
   */
  | "unknown_type"
  /**
   * The `type` is known but a field is missing, of the wrong type, or out of
   * range (names too long, malformed ids, a bad `id`).
   */
  | "bad_request"
  /**
   * The frame is larger than `welcome.limits.max_frame_bytes`; it was dropped
   * unread (its `id` cannot be echoed).
   */
  | "too_large"
  /**
   * `hello.version` is outside the versions this server speaks; `supported`
   * says which it does. The server then closes with 4003.
   */
  | "unsupported_version"
  /**
   * A request arrived before `hello`. The connection stays open for the
   * `hello` (a second `hello` on an open session is a `bad_request`).
   */
  | "hello_required"
  /**
   * More messages than `welcome.limits` allow; the message was dropped.
   * `retry_after_ms` says when one will be accepted again. Persistent flooding
   * closes the connection with 1008.
   */
  | "rate_limited"
  /**
   * No such room or table (or it is private and you were not invited, or it
   * has gone).
   */
  | "not_found"
  /** Both seats of the room are taken. */
  | "room_full"
  /**
   * You hold no seat in this room or at this table: a spectator tried to act,
   * or someone other than the room's creator tried to cancel it.
   */
  | "not_a_player"
  /**
   * You are neither seated at nor watching this table (`act`, `snapshot`,
   * `unwatch` need one or the other).
   */
  | "wrong_table"
  /**
   * You already sit in this room, or sitting in another would exceed
   * `welcome.limits.max_seats`.
   */
  | "already_seated"
  /**
   * The room's game is running: resign (or abort) before leaving, and a room
   * cannot be cancelled once its game has started.
   */
  | "game_in_progress"
  /**
   * A per-session limit other than seats would be exceeded (e.g. watching more
   * than `welcome.limits.max_watch` tables).
   */
  | "limit_reached"
  /**
   * `create_room.config` is not a valid configuration (the message says why).
   */
  | "invalid_config"
  /**
   * The referee refused the action; `game_error` holds its reason (the rules
   * crate's `GameError`, tagged by its own `code`). Nothing changed.
   */
  | "game"
  /**
   * The server cannot do this now (shutting down, overloaded, or a feature
   * switched off). Retrying later may work.
   */
  | "unavailable"
  /**
   * A bug or an internal failure on the server; the request may or may not
   * have taken effect.
   */
  | "internal"
  /** Chat is switched off in this room. */
  | "chat_off"
  /**
   * No rematch now: the game is not over, it is a tournament game, the
   * finished table has closed, or no rematch offer stands to decline.
   */
  | "no_rematch"
  /**
   * `register`: the name is registered already (in any case), looks like a
   * registered account's name, or a guest online uses it.
   */
  | "name_taken"
  /**
   * `register`: the name is not a valid account name (the message says why);
   * `create_room`, `create_tournament`: the name hides characters, or looks
   * like another account's name or like `guest-<n>`.
   */
  | "invalid_name"
  /** `register`: the password is too short. */
  | "weak_password"
  /**
   * `login`: no such account, or a wrong password (never says which);
   * `hello.token`: no such token (or it was revoked).
   */
  | "bad_credentials"
  /** `hello.token`: the token has expired; log in again. */
  | "token_expired"
  /**
   * The request needs an account (rated play, the queue, `logout`); you are a
   * guest.
   */
  | "login_required"
  /**
   * `become_bot`: the account has played a game (or sits at a table), so it
   * stays a person's.
   */
  | "already_played"
  /**
   * A bot's filters refuse this challenge: outside the rule sets, time
   * controls, casual games or kinds of opponent it takes (the message says
   * which).
   */
  | "bot_refused"
  /**
   * The account is banned: `ban` says why and until when. Login and `hello`
   * with its token are refused; its connections are closed.
   */
  | "banned"
  /** The request needs a role the account lacks (moderator, admin). */
  | "forbidden"
  /** The other player blocks you (or you them): no challenge, no pairing. */
  | "blocked"
  /**
   * A fair-play wait before the next rated game: `retry_after_ms` says how
   * long.
   */
  | "playbanned"
  /**
   * A tournament takes no entries now (it has started or is over), or cannot
   * start or be changed now (the message says why).
   */
  | "tournament_closed"
  /** `join_tournament`: you are entered already. */
  | "already_joined"
  /** `withdraw_tournament`: you are not entered (or withdrew already). */
  | "not_joined"
  /**
   * `join_tournament`: an entry limit is not met (rating range, accounts only,
   * no bots, the event is full; the message says which).
   */
  | "entry_refused"
  /** `start_tournament`: too few players are entered. */
  | "too_few_players"
  /** Only the tournament's organiser may do this (`start_tournament`). */
  | "not_organiser"
  /** `reset_rating`: this game's rating changes were reversed already. */
  | "already_reset"
  /** `reset_rating`: the game changed no rating (casual, or aborted). */
  | "not_rated"
  /**
   * `claim_absence`: the opponent is not away past the grace (or is back), you
   * are away yourself, or the server settles this game's absences itself
   * (untimed, tournament and bot games).
   */
  | "not_absent";

/** Something that happened, in order. `clocks` is `null` in untimed games. */
export type Event =
  /** A stone was placed, or (`point: null`) a move was passed. */
  | {
      type: "moved";
      number: number;
      seat: Seat;
      color: Color;
      /** `null` for a pass. */
      point: Point | null;
      clocks: ClockSnapshot | null;
      /**
       * The board the stone is on: 0 or 1 in twin rooms, 0 (left out on the
       * wire) everywhere else.
       */
      board?: number;
    }
  /**
   * The swap decision: `swapped` tells whether `seat` took the other colour;
   * `black` is the seat holding black from now on.
   */
  | {
      type: "swap_decided";
      seat: Seat;
      swapped: boolean;
      black: Seat;
      clocks: ClockSnapshot | null;
    }
  /**
   * The first three stones form the canonical opening `code` (`D4`), `name`
   * (romanised, `Kagetsu`), `chinese` (`花月`). Reported in the renju opening
   * rules when black 3 is placed.
   */
  | { type: "opening_formed"; code: string; name: string; chinese: string }
  /** `seat` declared that black will offer `count` fifth moves. */
  | {
      type: "offers_declared";
      seat: Seat;
      count: number;
      clocks: ClockSnapshot | null;
    }
  /**
   * `seat` (holding black) offered these fifth moves; together they are move
   * 5, which white now chooses.
   */
  | {
      type: "fifths_offered";
      seat: Seat;
      points: OfferSet;
      clocks: ClockSnapshot | null;
    }
  /**
   * `seat` (holding white) kept `kept` as black 5 and `removed` the others; a
   * `moved` for move 5 follows.
   */
  | { type: "fifth_kept"; seat: Seat; kept: Point; removed: Point[] }
  /** `seat` (holding black) chose Taraguchi's `option`. */
  | {
      type: "option_chosen";
      seat: Seat;
      option: TaraguchiOption;
      clocks: ClockSnapshot | null;
    }
  /** `seat` offered a draw; `offers` is its count of offers so far. */
  | { type: "draw_offered"; seat: Seat; offers: number }
  /**
   * `seat` declined the opponent's offer, explicitly or (`by_move`) by making
   * a move.
   */
  | { type: "draw_declined"; seat: Seat; by_move: boolean }
  /** `seat`'s offer was not answered in time. */
  | { type: "draw_offer_lapsed"; seat: Seat }
  /** `seat` accepted the opponent's offer (a `game_over` follows). */
  | { type: "draw_accepted"; seat: Seat }
  /** White's claim held (a `game_over` follows). */
  | { type: "claim_upheld"; seat: Seat; point: Point; kind: Forbidden }
  /**
   * `seat` committed a violation; `count` is its total in this game. For a
   * false claim, `point` is the point it named (absent for a claim that named
   * none, in records from before claims named it).
   */
  | {
      type: "violation";
      seat: Seat;
      kind: ViolationKind;
      count: number;
      point?: Point;
    }
  /** Twin rooms: `seat` ended its turn after one stone. */
  | { type: "turn_ended"; seat: Seat; clocks: ClockSnapshot | null }
  /**
   * `seat` asks to take back its last move (and the opponent's moves after it,
   * if any).
   */
  | { type: "takeback_requested"; seat: Seat }
  /**
   * The takeback request ended without a takeback: `seat` declined it,
   * explicitly or (`by_move`) by making a move (the requester's own move
   * withdraws it).
   */
  | { type: "takeback_declined"; seat: Seat; by_move: boolean }
  /**
   * `seat`'s takeback request was accepted: `undone` are the moves taken off,
   * in the order they were played (remove them from the end of the moves
   * list); the prompt that comes with the event asks `seat` to move again. The
   * clocks are not turned back.
   */
  | {
      type: "taken_back";
      seat: Seat;
      undone: Move[];
      clocks: ClockSnapshot | null;
    }
  /**
   * The game is over. In `claim` rooms `forbidden` lists every black stone
   * that was forbidden when played (now it may be known).
   */
  | {
      type: "game_over";
      result: GameResult;
      clocks: ClockSnapshot | null;
      forbidden?: ForbiddenStone[];
    };

/**
 * Which games an explorer view counts. Every part is optional: an empty list
 * or an absent bound counts everything.
 */
export interface ExplorerFilter {
  /** Only games of these rating bands. */
  bands?: RatingBand[];
  /** With `player`: only the games where they held this colour. */
  color?: Color;
  /**
   * Only this player's games (an account's name, any case): the player's own
   * explorer. Imported games belong to no player.
   */
  player?: string;
  /** Only games that ended in this month or later, `"2026-01"` (UTC). */
  since?: string;
  /** Only games of these time-control classes. */
  speeds?: Speed[];
  /** Only games that ended in this month or earlier, `"2026-12"` (UTC). */
  until?: string;
}

/** One of the latest games through the position. */
export interface ExplorerGame {
  /** The finished game (`game_record`, `/game/ID` in the web client). */
  game: TableId;
  black: string;
  white: string;
  result: ColorResult;
  /** When it ended, Unix milliseconds. */
  finished_ms: number;
  speed: Speed;
  band: RatingBand;
}

/**
 * The reply to `explore`: the position after `moves`, counted over the games
 * the filter admits.
 */
export interface ExplorerView {
  rule_set: RuleSet;
  opening: Opening;
  board_size: number;
  /** The moves asked for, as asked. */
  moves: Point[];
  filter: ExplorerFilter;
  /** Who moves next. */
  to_move: Color;
  /**
   * Every game that reached the position (by any order of moves and any
   * symmetry).
   */
  stats: NodeStats;
  /** The moves played from it, most played first. */
  next: NextMove[];
  /** The latest games through it, newest first (at most 8). */
  games: ExplorerGame[];
  /**
   * How many moves deep the server indexes games: the position after that many
   * moves has no `next`.
   */
  depth: number;
  /**
   * The fifth-move offers made in it, most offered first (opening rules with
   * offers).
   */
  offers?: OfferCount[];
  /**
   * The canonical opening, once the first three stones form one (renju, by any
   * symmetry).
   */
  opening_name?: OpeningName;
}

/** A player's rating in one family. */
export interface FamilyRating {
  family: RatingFamily;
  rating: number;
  deviation: number;
  volatility: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /**
   * Fewer than 7 rated games, or fewer than 3 different opponents: the rating
   * is not published on the leaderboard yet.
   */
  provisional: boolean;
  /** Fewer than 7 rated games in the last 12 months. */
  inactive: boolean;
  /** The rating after each of the latest games, oldest first (at most 50). */
  history?: RatingPoint[];
}

/**
 * The kind of a forbidden point. When several apply the one reported is the
 * first of overline, double four, double three.
 */
export type Forbidden =
  /** Six or more black stones in a row (长连). */
  | "overline"
  /** Two or more fours at once, including two on one line (四四). */
  | "double-four"
  /** Two or more live threes at once (三三). */
  | "double-three";

/**
 * What happens when black plays a forbidden point (docs/rules.md §3). Only
 * meaningful for rule sets where black has forbidden moves.
 */
export type ForbiddenHandling =
  /**
   * The competition rule: the stone stands unless white claims it before
   * white's next move (a stone or a pass; declining a draw is no move), an
   * overline at any time. False claims are violations.
   */
  | "claim"
  /** A forbidden move loses at once. */
  | "lose"
  /** A forbidden point is refused; nothing changes. */
  | "block";

/** A point where a black stone would be forbidden, and why. */
export interface ForbiddenPoint {
  point: Point;
  kind: Forbidden;
}

/**
 * A black stone that was forbidden when it was played, revealed when a `claim`
 * game ends.
 */
export interface ForbiddenStone {
  move_number: number;
  point: Point;
  kind: Forbidden;
}

/** The reply to `analyze_game`. */
export interface GameAnalysis {
  game: TableId;
  /** Whether VCTs were looked for (as asked). */
  vct: boolean;
  /**
   * The moves whose mover had a forced win, in order. A move not listed had
   * none that the search found within its budget.
   */
  moves: MoveVerdict[];
  /**
   * Numbers of the moves where the VCF search ran out of budget before
   * deciding (a win may have been missed there unseen). Left out when empty.
   */
  undecided?: number[];
}

/**
 * A table's configuration. Build one, then `GameConfig.validate` it (the
 * machine refuses an invalid one).
 */
export interface GameConfig {
  rule_set: RuleSet;
  opening: Opening;
  /** 15, or 19 in free-style rooms; 19 (each board) in twin rooms. */
  board_size: number;
  time: TimeControl;
  draw: DrawPolicy;
  /**
   * The most lag credit one move may receive (the server measures the lag; the
   * machine caps it here and at the move's elapsed time).
   */
  lag_credit_cap_ms: number;
  /**
   * For rule sets with forbidden moves; absent there means `claim`, the
   * competition rule. Must be absent for the others.
   */
  forbidden?: ForbiddenHandling;
  /**
   * Whether a player may ask to take back a move (docs/rules.md §5). The
   * server sets it: on in casual rooms, off in rated and tournament games.
   * Left out when off.
   */
  takebacks?: boolean;
}

/**
 * A table's configuration. Build one, then `GameConfig.validate` it (the
 * machine refuses an invalid one).
 */
export interface GameConfigInput {
  rule_set: RuleSet;
  opening: OpeningInput;
  /** 15, or 19 in free-style rooms; 19 (each board) in twin rooms. */
  board_size: number;
  time: TimeControlInput;
  /** @default {} */
  draw?: DrawPolicy;
  /**
   * For rule sets with forbidden moves; absent there means `claim`, the
   * competition rule. Must be absent for the others.
   */
  forbidden?: ForbiddenHandling;
  /**
   * The most lag credit one move may receive (the server measures the lag; the
   * machine caps it here and at the move's elapsed time).
   * @default 1000
   */
  lag_credit_cap_ms?: number;
  /**
   * Whether a player may ask to take back a move (docs/rules.md §5). The
   * server sets it: on in casual rooms, off in rated and tournament games.
   * Left out when off.
   */
  takebacks?: boolean;
}

export type GameError =
  | { code: "game_over" }
  | { code: "time_up"; seat: Seat }
  | { code: "time_went_backwards"; now: number; last: number }
  | { code: "not_your_turn" }
  | { code: "off_board"; point: Point }
  | { code: "occupied"; point: Point }
  | { code: "outside_zone"; within: number }
  | { code: "forbidden_point"; point: Point; kind: Forbidden }
  | { code: "pass_not_allowed" }
  | { code: "swap_decision_pending" }
  | { code: "no_swap_decision" }
  | { code: "offer_not_allowed" }
  | { code: "offer_pending" }
  | { code: "offer_limit" }
  | { code: "offer_cap"; max: number }
  | { code: "no_draw_offer" }
  | { code: "claims_disabled" }
  | { code: "claim_by_black" }
  | { code: "abort_not_allowed" }
  | { code: "wrong_action"; task: Task }
  | { code: "pass_during_opening" }
  | { code: "offer_count_out_of_range"; count: number; max: number }
  | { code: "wrong_offer_count"; expected: number; got: number }
  | { code: "repeated_offer"; point: Point }
  | { code: "equivalent_offers"; first: Point; second: Point }
  | { code: "not_an_offer"; point: Point }
  | { code: "opening_five"; point: Point }
  | { code: "no_such_board"; board: number; boards: number }
  | { code: "no_pass_in_twin" }
  | { code: "claim_not_black_stone"; point: Point }
  | { code: "claim_not_possible" }
  | { code: "turn_cannot_end" }
  | { code: "takebacks_off" }
  | { code: "nothing_to_take_back" }
  | { code: "takeback_pending" }
  | { code: "takeback_declined_already" }
  | { code: "no_takeback_request" };

/**
 * A whole game (or a game so far). See the module documentation for the JSON
 * form.
 */
export interface GameRecord {
  version: number;
  config: GameConfig;
  opener: Seat;
  start: number;
  entries: RecordEntry[];
  result: GameResult | null;
  tags?: { [key: string]: string };
}

/** The end of a game. */
export interface GameResult {
  outcome: Outcome;
  reason: ResultReason;
}

/** One finished game in a player's history. */
export interface GameSummary {
  /**
   * The game's id (the id of the table it was played at): fetch it with
   * `game_record`.
   */
  game: TableId;
  /** When it ended, in Unix milliseconds. */
  finished_ms: number;
  /** The players' names, by seat (first, second). */
  players: string[];
  /**
   * The seat that held black at the end (after any swap): with `players`, each
   * player's colour.
   */
  black?: Seat;
  /** The room's configuration: rule set, opening rule, time control. */
  config?: GameConfig;
  /**
   * The canonical opening the first three stones formed, in the renju opening
   * rules: its code, romanised name and Chinese name (`["I1", "Chosei",
   * "长星"]`).
   */
  opening?: [string, string, string];
  /** How it ended (who won, with which colour, and why). */
  result?: GameResult;
  /**
   * Set on the entry a moderator's `reset_rating` adds: the game whose rating
   * changes it reversed (its record is that game's, marked).
   */
  reverses?: TableId;
}

/** The first message of every connection. */
export interface Hello {
  /** The protocol version the client speaks (1). */
  version: number;
  /**
   * The client's name and version, for the server's logs
   * (`"tengen-cli/0.1.0"`).
   */
  client?: string;
  /**
   * The display name a guest would like; the server may alter it to keep names
   * unique (`welcome.player.name` is the one given). Taken in its NFKC form,
   * in one script, without invisible or direction-changing characters
   * (`bad_request` otherwise); one that looks like a registered account's name
   * or like `guest-<n>` gives `guest-<n>`.
   */
  name?: string;
  /**
   * The `resume_token` of an earlier session (from its `welcome`): if it is
   * still valid the server resumes that session (same session id, name and
   * seats) and says so in `welcome.resumed`; an unknown or expired token
   * simply opens a new session.
   */
  resume?: string;
  /**
   * A login token (from `logged_in` or `registered`; feature `accounts`): the
   * new session is the account's. Ignored when `resume` resumes a session. An
   * expired, revoked or unknown token is refused (`token_expired`,
   * `bad_credentials`) and the server waits for another `hello`.
   */
  token?: string;
}

/** A family's leaderboard. */
export interface Leaderboard {
  family: RatingFamily;
  /** Established, active players, highest rating first (at most 100). */
  players: Standing[];
  /** Bot accounts' leaderboard (`true`) or people's (absent). */
  bots?: boolean;
  /**
   * Established players with fewer than 7 rated games in the last 12 months,
   * listed apart (same order and bound).
   */
  inactive?: Standing[];
}

/** The limits a client must respect, announced in `welcome`. */
export interface Limits {
  /** Largest frame the server accepts, in bytes. */
  max_frame_bytes: number;
  /** Sustained messages per second (a token bucket refilled at this rate). */
  rate_per_sec: number;
  /**
   * Messages that may be sent at once above the sustained rate (the bucket's
   * size).
   */
  rate_burst: number;
  /**
   * The server closes a connection (4004) from which nothing, not even a
   * WebSocket pong, arrived for this long. The server pings at a third of it;
   * ordinary WebSocket libraries answer by themselves.
   */
  idle_timeout_ms: number;
  /** Rooms or tables a session may sit in at once. */
  max_seats: number;
  /** Tables a session may watch at once. */
  max_watch: number;
}

/**
 * Changes to the lobby since the last update, coalesced: a room appears in at
 * most one list, and clients apply `removed`, then `changed`, then `added`. A
 * room added and removed within one period is not mentioned.
 */
export interface LobbyUpdate {
  added?: RoomInfo[];
  changed?: RoomInfo[];
  removed?: RoomId[];
}

/** The reply to `login` and `register`: this session is now the account's. */
export interface LoggedIn {
  /** You, as others see you now (`guest: false`). */
  player: Player;
  /**
   * The login token (32 hex digits, a secret): `hello.token` with it opens an
   * account session on a later connection, until `expires_ms` or `logout`.
   */
  token: string;
  /** When the token stops working, in Unix milliseconds. */
  expires_ms: number;
  /**
   * A fair-play wait this account is serving now (rated games refused until it
   * ends), if any.
   */
  playban?: Playban;
}

/**
 * What a moderator asks, in `{"type":"moderate","action":...}`. Every action
 * but the reading ones (`audit_log`, `reports`, `lookalikes`) is written to
 * the audit log with its `reason`.
 */
export type ModRequest =
  /** An admin gives `player` a role. */
  | { action: "set_role"; player: string; role: Role; reason: string }
  /**
   * Refuses `player`'s logins (for `minutes`, or for good) and closes its
   * sessions on every node.
   */
  | { action: "ban"; player: string; reason: string; minutes?: number }
  | { action: "unban"; player: string; reason: string }
  /** `player`'s chat reaches only themselves, for `minutes`. */
  | { action: "mute"; player: string; reason: string; minutes: number }
  | { action: "unmute"; player: string; reason: string }
  /** The latest audit entries, newest first (`limit`: at most 200). */
  | { action: "audit_log"; limit?: number }
  /** The open reports, oldest first. */
  | { action: "reports" }
  /**
   * The groups of accounts whose names look alike (registered before such
   * names were refused, or at the same moment), answered by `lookalikes`.
   */
  | { action: "lookalikes" }
  /** Closes report `report` with a note. */
  | { action: "close_report"; report: string; reason: string }
  /** Refuses WebSocket upgrades from an address or a CIDR range. */
  | {
      action: "ban_address";
      range: string;
      reason: string;
      minutes?: number;
    }
  | { action: "unban_address"; range: string; reason: string }
  /** Ends `player`'s fair-play wait and forgets its abandoned rated games. */
  | { action: "lift_playban"; player: string; reason: string }
  /**
   * Closes room `room` on whichever node holds it: it leaves the lobby, a game
   * in it is aborted (unrated), and everyone seated or watching gets
   * `room_closed` with the reason.
   */
  | { action: "close_room"; room: RoomId; reason: string }
  /**
   * Aborts the game at `table` (unrated, result `arbiter`): its players and
   * spectators get the final event, then `game_aborted` with the reason.
   */
  | { action: "abort_game"; table: TableId; reason: string }
  /**
   * Reverses the rating changes of the finished rated game `game` for both
   * players, once; the game's record is marked.
   */
  | { action: "reset_rating"; game: TableId; reason: string };

/**
 * One move of the game: a stone or a pass. Move numbers count both, from 1;
 * black's are odd, white's even (in twin rooms every stone is a move and turns
 * are of two: black 1, white 2–3, black 4–5, ...).
 */
export interface Move {
  number: number;
  seat: Seat;
  color: Color;
  /** `null` for a pass. */
  point: Point | null;
  /**
   * The board the stone is on: 0 or 1 in twin rooms, 0 (left out on the wire)
   * everywhere else.
   */
  board?: number;
}

/**
 * One move of a finished game where the side to move had a forced win in the
 * position before it.
 */
export interface MoveVerdict {
  /**
   * The move's number, from 1, counting every stone and pass of the game in
   * order (as `game_record`'s renju notation lists them for the openings that
   * place one stone per move).
   */
  number: number;
  /** The side to move (who played it). */
  color: Color;
  /** The move played, in renju notation (`h8`, or `pass`). */
  played: string;
  /**
   * Whether the move played began a forced win of the same kind (it need not
   * be the line shown); `null` when the search ran out of budget deciding it.
   */
  kept: boolean | null;
  /**
   * The mover's VCF (victory by continuous fours), when there was one: the
   * attacker's and the defender's moves in turn, in renju notation, starting
   * and ending with the attacker's.
   */
  vcf?: string;
  /**
   * With `vct` asked and no VCF: the mover's VCT (victory by continuous threes
   * and fours), as `vcf`.
   */
  vct?: string;
}

/** A move played from the position, and the games that played it. */
export interface NextMove {
  /**
   * In the orientation of the position asked for. Moves that are the same move
   * under a symmetry of the position itself are one, shown at one of their
   * points.
   */
  point: Point;
  stats: NodeStats;
}

/** Games through a position and how they ended. */
export interface NodeStats {
  games: number;
  /** Won by black. */
  black: number;
  draws: number;
  /** Won by white. */
  white: number;
  /**
   * The mean of the games' average ratings, over the rated ones; absent when
   * none was rated.
   */
  rating?: number;
}

/**
 * A fifth-move offer black made in the position, and how often white kept it
 * (the kept offer's games are its `NextMove`).
 */
export interface OfferCount {
  point: Point;
  offered: number;
  kept: number;
}

/**
 * Black's fifth-move offers, in the order given. Whether they are on the
 * board, free and pairwise non-equivalent is the referee's to judge.
 */
export type OfferSet = Point[];

/**
 * How the opening is played: who places the first stones and when colours may
 * change hands (docs/rules.md §6). New openings are added as new variants.
 *
 * Serialized in snake case (`yamaguchi_52` for `yamaguchi_52`); the variants
 * with a parameter as an object, `{"soosorv": {"n": 8}}` (a missing `n` takes
 * the default). The text form (`Display`, `FromStr`) is `soosorv-8`,
 * `taraguchi-10`, `rif`, ...; `soosorv` alone means the default N.
 */
export type Opening =
  /**
   * Free opening: black and white alternate from move 1 (renju: black 1 on the
   * centre).
   */
  | "free"
  /**
   * Swap after move 3 (三手交换): after black's 3rd stone the player holding white
   * may take black instead, once.
   */
  | "swap_after_three"
  /**
   * RIF: the opener (tentative black) places moves 1-3 (1 on H8, 2 in the 3x3,
   * 3 in the 5x5 square: one of the 26 openings); the other seat may swap;
   * white plays 4 anywhere; black offers two non-equivalent 5ths; white keeps
   * one and plays 6. Renju only.
   */
  | "rif"
  /**
   * Yamaguchi: the opener places one of the 26 openings and declares N
   * (1..=10); the other seat may swap; white 4 anywhere; black offers N
   * non-equivalent 5ths; white keeps one and plays 6. Renju only.
   */
  | "yamaguchi"
  /**
   * Soosõrv-N: one of the 26 by the opener; swap option; white 4 anywhere and
   * a declared 1..=`n` offers; swap option; black's offers; white keeps one
   * and plays 6. Renju only.
   */
  | { soosorv: { n: number } }
  /**
   * Taraguchi-N: moves 1-4 in the centre, 3x3, 5x5, 7x7 squares, a swap option
   * after each of moves 1-3; then black chooses `single` (a swap option, a 5th
   * inside the 9x9, a swap option) or `offers` (`n` offers anywhere, white
   * keeping one). Renju only.
   */
  | { taraguchi: { n: number } }
  /**
   * Tarannikov: moves 1-5 in the centre, 3x3 ... 9x9 squares, a swap option
   * after each, 6 anywhere. Renju only.
   */
  | "tarannikov"
  /**
   * Jonsson: one of the 26 by the opener; swap option; white 4 anywhere and a
   * declared 1..=3 offers; swap option; black's offers; white keeps one and
   * plays 6 (the variants list rule 7). Renju only.
   */
  | "jonsson"
  /**
   * Yamaguchi with the 52 openings: as `yamaguchi`, but black 3 anywhere in
   * the 7x7 square (one of the 26 or of their 26 extensions; the variants list
   * rule 8). Renju only.
   */
  | "yamaguchi_52"
  /**
   * The Yamaguchi variant: black 1 on H8, white 2 (by the second seat) in the
   * 3x3, black 3 in the 7x7 and a declared N; swap option; white 4 anywhere; N
   * offers; white keeps one and plays 6 (the variants list rule 9). Renju
   * only.
   */
  | "yamaguchi_variant"
  /**
   * Sakata: the opener places one of the 26 openings; the other seat places
   * white 4 in the 7x7 and black 5 in the 9x9; the opener then chooses its
   * colour (a swap option) and white 6 follows (the rules introduction,
   * Sakata). Renju only.
   */
  | "sakata"
  /**
   * Super Sakata: as `sakata` to black 5; then the chooser (the seat that did
   * not place the last two stones) takes white and plays 6, takes black, or
   * places a white and a black stone anywhere and hands the choice back, at
   * most 5 times (the RIF's Super Sakata description). Renju only.
   */
  | "super_sakata"
  /**
   * Swap2: the opener places black, white, black; the other seat places white
   * 4, or takes black (the opener then places white 4), or places white 4 and
   * black 5 and the opener chooses the colour. Gomoku and free-style only.
   */
  | "swap2";

/**
 * How the opening is played: who places the first stones and when colours may
 * change hands (docs/rules.md §6). New openings are added as new variants.
 *
 * Serialized in snake case (`yamaguchi_52` for `yamaguchi_52`); the variants
 * with a parameter as an object, `{"soosorv": {"n": 8}}` (a missing `n` takes
 * the default). The text form (`Display`, `FromStr`) is `soosorv-8`,
 * `taraguchi-10`, `rif`, ...; `soosorv` alone means the default N.
 */
export type OpeningInput =
  /**
   * Free opening: black and white alternate from move 1 (renju: black 1 on the
   * centre).
   */
  | "free"
  /**
   * Swap after move 3 (三手交换): after black's 3rd stone the player holding white
   * may take black instead, once.
   */
  | "swap_after_three"
  /**
   * RIF: the opener (tentative black) places moves 1-3 (1 on H8, 2 in the 3x3,
   * 3 in the 5x5 square: one of the 26 openings); the other seat may swap;
   * white plays 4 anywhere; black offers two non-equivalent 5ths; white keeps
   * one and plays 6. Renju only.
   */
  | "rif"
  /**
   * Yamaguchi: the opener places one of the 26 openings and declares N
   * (1..=10); the other seat may swap; white 4 anywhere; black offers N
   * non-equivalent 5ths; white keeps one and plays 6. Renju only.
   */
  | "yamaguchi"
  /**
   * Soosõrv-N: one of the 26 by the opener; swap option; white 4 anywhere and
   * a declared 1..=`n` offers; swap option; black's offers; white keeps one
   * and plays 6. Renju only.
   */
  | {
      soosorv: {
        /** @default 8 */
        n?: number;
      };
    }
  /**
   * Taraguchi-N: moves 1-4 in the centre, 3x3, 5x5, 7x7 squares, a swap option
   * after each of moves 1-3; then black chooses `single` (a swap option, a 5th
   * inside the 9x9, a swap option) or `offers` (`n` offers anywhere, white
   * keeping one). Renju only.
   */
  | {
      taraguchi: {
        /** @default 10 */
        n?: number;
      };
    }
  /**
   * Tarannikov: moves 1-5 in the centre, 3x3 ... 9x9 squares, a swap option
   * after each, 6 anywhere. Renju only.
   */
  | "tarannikov"
  /**
   * Jonsson: one of the 26 by the opener; swap option; white 4 anywhere and a
   * declared 1..=3 offers; swap option; black's offers; white keeps one and
   * plays 6 (the variants list rule 7). Renju only.
   */
  | "jonsson"
  /**
   * Yamaguchi with the 52 openings: as `yamaguchi`, but black 3 anywhere in
   * the 7x7 square (one of the 26 or of their 26 extensions; the variants list
   * rule 8). Renju only.
   */
  | "yamaguchi_52"
  /**
   * The Yamaguchi variant: black 1 on H8, white 2 (by the second seat) in the
   * 3x3, black 3 in the 7x7 and a declared N; swap option; white 4 anywhere; N
   * offers; white keeps one and plays 6 (the variants list rule 9). Renju
   * only.
   */
  | "yamaguchi_variant"
  /**
   * Sakata: the opener places one of the 26 openings; the other seat places
   * white 4 in the 7x7 and black 5 in the 9x9; the opener then chooses its
   * colour (a swap option) and white 6 follows (the rules introduction,
   * Sakata). Renju only.
   */
  | "sakata"
  /**
   * Super Sakata: as `sakata` to black 5; then the chooser (the seat that did
   * not place the last two stones) takes white and plays 6, takes black, or
   * places a white and a black stone anywhere and hands the choice back, at
   * most 5 times (the RIF's Super Sakata description). Renju only.
   */
  | "super_sakata"
  /**
   * Swap2: the opener places black, white, black; the other seat places white
   * 4, or takes black (the opener then places white 4), or places white 4 and
   * black 5 and the opener chooses the colour. Gomoku and free-style only.
   */
  | "swap2";

/**
 * The canonical opening the first three stones form (renju): its code (`D4`),
 * romanised and Chinese names.
 */
export interface OpeningName {
  code: string;
  name: string;
  chinese: string;
}

/**
 * Where the opening stands, for a client that (re)joins: the decisions that
 * the moves list does not show.
 */
export interface OpeningProgress {
  /**
   * The canonical opening the first three stones form (its code, e.g. `D4`),
   * in the renju opening rules.
   */
  canonical?: string;
  /** Its name in Chinese (`花月`). */
  canonical_chinese?: string;
  /** Its name, romanised (`Kagetsu`), as `opening_formed` gives it. */
  canonical_name?: string;
  /** The declared number of fifth-move offers (Yamaguchi, Soosõrv). */
  declared_offers?: number;
  /**
   * Black's fifth-move offers once made; still shown after white's choice
   * (move 5 in the moves list is the one kept).
   */
  fifth_offers?: OfferSet;
  /** Taraguchi's option, once chosen. */
  option?: TaraguchiOption;
}

/** Who won, if anyone. */
export type Outcome =
  /** `seat` won, holding `color` at the end. */
  | { kind: "win"; seat: Seat; color: Color }
  | { kind: "draw" }
  /** Cancelled: no winner, unrated. */
  | { kind: "aborted" };

/** Why a table's clocks stand still. */
export type PauseReason =
  /**
   * The server restarted and restored the game; the clocks wait for both
   * players to come back (or for the grace after the restart to pass).
   */
  | "restored"
  /**
   * The server cannot save actions right now: actions are refused with
   * `unavailable` until it can again.
   */
  | "store";

/**
 * A fair-play wait running (`logged_in.playban`): rated games are refused with
 * `playbanned` until it ends; casual games are not.
 */
export interface Playban {
  /** When it ends (Unix ms). */
  until_ms: number;
  /** How long it still runs, in milliseconds, when the answer was sent. */
  remaining_ms: number;
  /** For people: why and how long, in words. */
  message: string;
}

/**
 * A person at a table, as others see them. Later versions add optional fields
 * (rating, provisional, title): ignore what you do not know.
 */
export interface Player {
  name: string;
  /** A guest session (no account). */
  guest: boolean;
  /**
   * A bot account (a program plays it). Sent only when `true`; older servers
   * never send it.
   */
  bot?: boolean;
}

/** Who sits in each seat (`null`: free). */
export interface Players {
  first: Player | null;
  second: Player | null;
}

/**
 * A point in renju notation: a column letter from A (none is skipped), a row
 * number from 1, bottom to top; H8 is the centre of a 15 x 15 board. Written
 * in upper case.
 */
export type Point = string;

/** A registered player's profile. */
export interface Profile {
  player: Player;
  /** When the account was registered, in Unix milliseconds. */
  created_ms: number;
  /** One entry per family the player has rated games in. */
  ratings?: FamilyRating[];
}

/**
 * Which seat must act now and what it may do. The seat named here is the one
 * whose clock runs; `other_may` says what the other seat may do meanwhile
 * (resign, a draw offer after its move, a claim, a takeback request or
 * answer), as `Game.allowed` gives it.
 */
export type Prompt = {
  seat: Seat;
  /** Every action kind this seat may attempt now. */
  may: ActionKind[];
  /**
   * Every action kind the other seat may attempt now. Judged on what both
   * players see: in `claim` rooms `claim_forbidden` is listed once black's
   * last stone could be forbidden (black has five stones or more and white has
   * not moved since) or a black overline stands, whether or not the claim
   * would hold.
   */
  other_may: ActionKind[];
  /**
   * In twin rooms (docs/rules.md §9), while a stone is due: how many stones
   * the seat still places this turn, this one included (2 or 1). Left out
   * everywhere else.
   */
  stones_left?: number;
} & (
  /**
   * Place one stone of `color` as move `move_number` (or pass, if the prompt
   * allows it). `within`, when set, is the side of the square around the
   * centre the stone must go in (1: the centre itself, as for renju's first
   * move).
   */
  | { task: "place"; color: Color; move_number: number; within?: number }
  /**
   * Decide whether to take the other colour (swap) or keep one's own; `color`
   * is the colour the deciding seat holds now.
   */
  | { task: "decide_swap"; color: Color }
  /**
   * Declare how many fifth-move offers black will make, from 1 to `max`
   * (Yamaguchi's opener after placing the opening, Soosõrv's white after
   * placing 4).
   */
  | { task: "declare_offers"; max: number }
  /**
   * Place `count` black fifth-move offers at once, anywhere, no two of them
   * equivalent (`offer_fifths`); together they are move 5.
   */
  | { task: "offer_fifths"; count: number }
  /**
   * Keep one of black's `offers` as black 5 (`keep_fifth`); the others are
   * removed and the same seat then plays white 6.
   */
  | { task: "keep_fifth"; offers: OfferSet }
  /**
   * Taraguchi, after move 4: choose option `single` (a swap option, black 5
   * inside the 9x9 square, a swap option) or `offers` (`offers` fifth-move
   * offers anywhere, white keeping one) (`choose_option`).
   */
  | { task: "choose_option"; offers: number }
  /**
   * Swap2, after the opener's three stones: place white 4 and stay white
   * (`place`, or `keep` first), take black (`swap`: the opener then places
   * white 4), or place white 4 and black 5 (`place_two`: the opener then
   * chooses the colour).
   */
  | { task: "swap2_choice" }
  /**
   * Super Sakata, after black 5 and after each option (c): the seat that did
   * not place the last two stones chooses. `color` is the colour it holds now;
   * `keep` keeps it and `swap` takes the other, as for `decide_swap` (whoever
   * then holds white plays the next stone: option (a) is taking white, option
   * (b) taking black), or `place_two` puts a white and then a black stone on
   * any free points and hands the choice to the other seat (option (c)).
   */
  | { task: "super_sakata_choice"; color: Color }
);

/** A puzzle made from a game, as the game lists it. */
export interface PuzzleRef {
  puzzle: string;
  move_number: number;
  to_move: Color;
  themes: PuzzleTheme[];
  rating: number;
}

/** The reply to `puzzle_move`. */
export interface PuzzleStep {
  attempt: string;
  /** The move judged. */
  point: Point;
  outcome: StepOutcome;
  /** Once a rated try is over: your puzzle rating's change. */
  rating?: RatingChange;
  /**
   * Why the try failed: `forbidden` (black's move is forbidden there) or
   * `no_win` (after it the forced win is gone).
   */
  reason?: string;
  /** The defender's answer (with `continue`). */
  reply?: Point;
  /**
   * Once the try is over: a winning line from the puzzle's position (attacker
   * and defender in turn), as the server's solver found it.
   */
  solution?: Point[];
}

/**
 * What a puzzle asks for, and how it was won: `vcf` (fours only) or `vct`
 * (threes and fours); `black` or `white` to play; `forbidden`: the win forces
 * black onto a forbidden point (a white puzzle in renju whose last defence is
 * forbidden).
 */
export type PuzzleTheme = "vcf" | "vct" | "black" | "white" | "forbidden";

/**
 * A puzzle to solve: a position from a finished game where the side to move
 * had a forced win and played something else.
 */
export interface PuzzleView {
  puzzle: string;
  /**
   * This try; name it in `puzzle_move`. Valid for an hour on the server that
   * gave it.
   */
  attempt: string;
  rule_set: RuleSet;
  board_size: number;
  black: Point[];
  white: Point[];
  /** Who plays, and wins. */
  to_move: Color;
  themes: PuzzleTheme[];
  /** The puzzle's Glicko-2 rating. */
  rating: number;
  /** Rated tries so far, and how many were solved. */
  plays: number;
  solved: number;
  /**
   * The game it comes from, and the move that missed the win (the position is
   * the one before it).
   */
  game: TableId;
  move_number: number;
  /**
   * Whether this try changes your puzzle rating: an account's first try of
   * this puzzle.
   */
  rated: boolean;
  /**
   * The day this is the daily puzzle of (`"2026-12-05"`, UTC), when asked as
   * such.
   */
  daily?: string;
  /** Your puzzle rating (accounts), before this try. */
  your_rating?: number;
}

/**
 * The players' average rating (in the game's rule family, as it stood when the
 * game was played), in bands of 200; `unrated` when either player had none
 * (guests, imported games).
 */
export type RatingBand = "unrated" | "<1300" | "1300-1499" | "1500-1699" | "1700-1899" | "1900-2099" | "2100+";

/** A rating before and after a rated try. */
export interface RatingChange {
  before: number;
  after: number;
}

/**
 * A rating family: the games one rating counts. Renju under every opening rule
 * is one family; standard gomoku, free-style and twin (two boards) are the
 * others. The wire form is the snake_case name (`"renju"`).
 */
export type RatingFamily = "renju" | "gomoku" | "freestyle" | "twin";

/** One point of a rating's history: the rating after a game. */
export interface RatingPoint {
  game: TableId;
  /** When the game ended, in Unix milliseconds. */
  at_ms: number;
  opponent: string;
  /** 1 win, 0.5 draw, 0 loss. */
  score: number;
  rating: number;
  deviation: number;
}

/** An input with the instant it was accepted and the clocks after it. */
export type RecordEntry = { at: number; clocks: ClockSnapshot | null } & (
  /** A seat's action; `lag_credit_ms` is the credit it was granted. */
  | { input: "act"; seat: Seat; action: Action; lag_credit_ms?: number }
  /** Time acted: the seat to move flagged, or a draw offer lapsed. */
  | { input: "tick" }
  /**
   * The server declared that `seat` abandoned the game (its opponent claimed
   * the win, or nobody was there to claim it).
   */
  | { input: "abandoned"; seat: Seat }
  /** `seat` was away past the grace and its opponent called a draw. */
  | { input: "draw_called"; seat: Seat }
  /** Both players were away past the grace in an untimed game. */
  | { input: "both_away" }
  /** The server aborted the game. */
  | { input: "aborted" }
  /** An arbiter (a moderator) aborted the game, at any point of it. */
  | { input: "arbiter_aborted" }
);

/** The reply to `game_record`. */
export interface RecordExport {
  game: TableId;
  format: RecordFormat;
  /** With `json`: the game record. */
  record?: GameRecord;
  /** With `renju` and `psq`: the text. */
  text?: string;
}

/** The formats a finished game's record can be fetched in. */
export type RecordFormat =
  /**
   * The full record (every action with its time and clocks, the result), as
   * the JSON object `record`.
   */
  | "json"
  /**
   * The game in renju notation as renju players keep it, as `text`: tags (rule
   * set, opening rule, date, players by colour, the opening, the fifth-move
   * offers, result and why), then the numbered moves with the opening's
   * decisions in braces (`1. h8 2. i9 3. j10 {swap}`).
   */
  | "renju"
  /** Piskvork's PSQ, as `text`. */
  | "psq";

/** Why a rematch offer is gone. */
export type RematchCancel =
  /** `seat` declined the opponent's offer (`decline_rematch`). */
  | "declined"
  /** `seat` withdrew its own offer (`decline_rematch`). */
  | "withdrawn"
  /** The finished table closed with the offer standing. */
  | "expired";

/** An open report, as moderators list it. */
export interface ReportItem {
  id: string;
  at_ms: number;
  by: string;
  player: string;
  reason: ReportReason;
  text: string;
  game?: TableId;
}

/** Why a player reports another. */
export type ReportReason = "chat_abuse" | "cheating" | "sandbagging" | "other";

/**
 * A game's result as the organiser reports it (`tournament_result`), by the
 * seats of that game.
 */
export type ReportedResult =
  | "draw"
  /** The first seat (black) won. */
  | "first"
  /** The second seat won. */
  | "second"
  /** The first seat wins: the second did not play. */
  | "first_by_forfeit"
  /** The second seat wins: the first did not play. */
  | "second_by_forfeit"
  /** Neither played. */
  | "double_forfeit";

/**
 * Why the game ended. Where a seat is named it is the one the reason is about
 * (the loser, or the seat that aborted).
 */
export type ResultReason =
  /** The winner made a winning line (the stones of the line). */
  | { kind: "five"; line: Point[] }
  /** White claimed black's forbidden move. */
  | { kind: "forbidden_claimed"; point: Point; forbidden: Forbidden }
  /** Black played a forbidden move in a `lose` room. */
  | { kind: "forbidden_played"; point: Point; forbidden: Forbidden }
  /** `seat` ran out of time. */
  | { kind: "time"; seat: Seat }
  | { kind: "resignation"; seat: Seat }
  /**
   * `seat` left the game: it was away past the grace and its opponent claimed
   * the win, or the server gave it where nobody could claim (docs/rules.md
   * §4), or it withdrew from the tournament.
   */
  | { kind: "abandonment"; seat: Seat }
  /** `seat` was away past the grace and its opponent called the game a draw. */
  | { kind: "draw_called"; seat: Seat }
  /** Both players were away past the grace in an untimed game: drawn. */
  | { kind: "both_away" }
  /** `seat` committed its second violation (false claims). */
  | { kind: "violations"; seat: Seat }
  | { kind: "draw_agreed" }
  | { kind: "both_passed" }
  | { kind: "board_full" }
  /**
   * Every overtime stone of the eight-stone overtime was played without a
   * result.
   */
  | { kind: "overtime_spent" }
  /**
   * Twin rooms: the winner's turn completed a five on each board (`lines[0]`
   * on board 0, `lines[1]` on board 1).
   */
  | { kind: "twin_fives"; lines: [Point[], Point[]] }
  /**
   * Twin rooms: `seat`'s turn completed a five on board `board` only, and so
   * lost (`line`, its stones).
   */
  | { kind: "one_board_five"; seat: Seat; board: number; line: Point[] }
  /** Aborted by `seat`, or by the server (`seat: null`). */
  | { kind: "aborted"; seat: Seat | null }
  /** An arbiter (a moderator) aborted the game: no winner, unrated. */
  | { kind: "arbiter" };

/** An account's role. */
export type Role =
  /** No moderation rights. */
  | "player"
  /** Bans, mutes, reports, the audit log, rooms and games. */
  | "moderator"
  /** A moderator who also sets roles. */
  | "admin";

/**
 * A room: a lobby entry with a configuration and two seats, where games are
 * played one after another (a rematch is a new table in the same room).
 * Opaque: compare as strings.
 */
export type RoomId = string;

/** A room as the lobby lists it. */
export interface RoomInfo {
  room: RoomId;
  config: GameConfig;
  players: Players;
  status: RoomStatus;
  /** The current (or last) game's table, once one started. */
  table: TableId | null;
  /** Spectators of that table. */
  spectators: number;
  /** Whether table chat is on (`create_room.chat`). */
  chat?: boolean;
  name?: string;
  /** A rated game (both players are accounts); left out when casual. */
  rated?: boolean;
}

/** Where a room is in its life. */
export type RoomStatus =
  /** A seat is free: `join_room` starts the game. */
  | "waiting"
  /** The game at `table` runs: `watch` it. */
  | "playing"
  /** The game at `table` is over; the room stays until its players leave. */
  | "finished";

export interface RoundView {
  round: number;
  boards: BoardView[];
}

/**
 * Which lines win and whether black has forbidden moves (docs/rules.md §4).
 */
export type RuleSet =
  /** Five or more wins, for both colours; no forbidden moves. */
  | "freestyle"
  /** Standard gomoku: exactly five wins, for both colours. */
  | "gomoku"
  /**
   * Renju: black 1 on the centre, black wins with exactly five and has
   * forbidden moves; white wins with five or more.
   */
  | "renju"
  /**
   * Professional traditional gomoku on two 19 x 19 boards (docs/rules.md §9):
   * turns of two stones (black's first turn one), each on either board; a turn
   * that completes fives on both boards wins, a turn that completes a five on
   * one board only loses. No forbidden moves.
   */
  | "twin";

/** A ban as a refused login carries it (`error.ban`). */
export interface Sanction {
  reason: string;
  /** When it ends (Unix ms); absent: for good. */
  until_ms?: number;
}

/**
 * A player's place at the table. Colours belong to seats only for a while:
 * they are assigned at the start (the *opener* starts as black) and change
 * hands when a swap is taken.
 */
export type Seat = "first" | "second";

/**
 * One seat's remaining time. For sudden death and Fischer only `main_ms` is
 * used. For byo-yomi, once `main_ms` is spent the seat is in its periods:
 * `periods` left (the current one included), `period_ms` left in the current
 * one, and `period_moves` still to make in it. For the eight-stone overtime,
 * `main_ms` is the main time left (zero for both seats once the game is in
 * overtime), `period_ms` the time left for the current overtime move and
 * `period_moves` the overtime stones still to play (with `move_limit_in_main`,
 * `period_ms` is also what is left of the current move's limit while the main
 * time lasts; with `shared_main`, both seats' `main_ms` are the game's one
 * main clock). For correspondence, `main_ms` is the time left for this move
 * and `vacation_ms` the vacation left.
 */
export interface SeatClock {
  main_ms: number;
  period_moves?: number;
  period_ms?: number;
  periods?: number;
  vacation_ms?: number;
}

/** A table where one of an account's sessions sits (a `my_tables` entry). */
export interface SeatedTable {
  /** The table: `watch` it after resuming the session. */
  table: TableId;
  /**
   * The resume token of the session seated there: `hello.resume` with it takes
   * that session (and its seat) over.
   */
  resume_token: string;
  /**
   * Whether a connection holds that session now (another tab or device):
   * resuming it closes that connection with 4005.
   */
  online: boolean;
}

/** The server's name and build, for logs and bug reports. */
export interface ServerInfo {
  name: string;
  version: string;
}

/**
 * A connection's session, named in `welcome` (for logs and support). Opaque:
 * compare as strings.
 */
export type SessionId = string;

/**
 * The public state of a game, for a client that (re)joins: everything a player
 * or spectator may know.
 */
export interface Snapshot {
  config: GameConfig;
  opener: Seat;
  /** The seat holding black now. */
  black: Seat;
  moves: Move[];
  /**
   * Whether the latest swap option was taken, once one was decided (`null`
   * before, or when the opening has none).
   */
  swapped: boolean | null;
  prompt: Prompt | null;
  clocks: ClockSnapshot | null;
  /** The seat whose draw offer awaits an answer. */
  draw_offer: Seat | null;
  /** Draw offers made so far, indexed by seat (first, second). */
  offers: [number, number];
  /** Violations so far, indexed by seat. */
  violations: [number, number];
  result: GameResult | null;
  /** Revealed once a `claim` game is over. */
  forbidden?: ForbiddenStone[];
  /** The opening rule's decisions so far (empty for the free openings). */
  opening?: OpeningProgress;
  /** The seat whose takeback request awaits an answer. */
  takeback?: Seat;
}

/**
 * A time control's class, by the time a game of about 40 moves a side takes:
 * main time plus 40 times what each move adds (Fischer's increment, a byo-yomi
 * period per move, an eight-stone overtime's stones). Below 3 minutes
 * `bullet`, below 10 `blitz`, below 30 `rapid`, else `classical`; days per
 * move `correspondence`; no clocks `unlimited`.
 */
export type Speed = "bullet" | "blitz" | "rapid" | "classical" | "correspondence" | "unlimited";

/** One line of a leaderboard. */
export interface Standing {
  /** 1 for the highest rating of the list. */
  rank: number;
  player: string;
  rating: number;
  deviation: number;
  /** Rated games in this family, and their outcomes. */
  games: number;
  wins: number;
  draws: number;
  losses: number;
}

/** One line of the standings. */
export interface StandingView {
  rank: number;
  name: string;
  /** Points as text (`2½`). */
  points: string;
  tie_breaks: TieBreakValue[];
}

/** Where a try stands after a move. */
export type StepOutcome =
  /** The move keeps the win: the defender answered with `reply`; play on. */
  | "continue"
  /** The move wins: a five, or a threat the defender cannot stop. */
  | "solved"
  /** The move lets the win go (or is forbidden): the try is over. */
  | "failed";

/** One thing that happened at a table. */
export interface TableEvent {
  table: TableId;
  /** 1 for a table's first event, then +1 for each: no gaps, no repeats. */
  seq: number;
  event: Event;
  /**
   * What the referee waits for once the step that produced this event is
   * complete (the same on every event of one step); `null` when the game is
   * over.
   */
  prompt: Prompt | null;
  /**
   * As `TableSnapshot.forbidden`, once the step is complete (the same on every
   * event of one step). Left out when empty.
   */
  forbidden?: ForbiddenPoint[];
}

/**
 * A table: one game, its event log and its spectators. Its events are numbered
 * by `seq` from 1. Opaque: compare as strings.
 */
export type TableId = string;

/**
 * A table's whole public state, sent when you start playing or watching it and
 * on `snapshot` requests. Events with `seq` greater than this `seq` follow;
 * apply none with a smaller or equal one.
 */
export interface TableSnapshot {
  table: TableId;
  room: RoomId;
  /** The `seq` of the last event the snapshot includes (0: none yet). */
  seq: number;
  /**
   * The referee's public state: configuration, opener, colours, moves, prompt,
   * clocks, draw offer, result.
   */
  snapshot: Snapshot;
  players: Players;
  spectators: number;
  /** Your seat, or `null` when you watch. */
  seat: Seat | null;
  /**
   * The players away from the table now, as the last `player_status` of each
   * told (left out when both are here).
   */
  away?: Away[];
  /**
   * In `block` and `lose` renju rooms, while black is asked for a stone: every
   * point where black's stone would be forbidden now, as the referee judges
   * it. Left out when empty (always in `claim` rooms).
   */
  forbidden?: ForbiddenPoint[];
  /**
   * Why the table's clocks stand still, if they do (see `table_paused`);
   * absent while they run.
   */
  paused?: PauseReason;
  /** Once the game is over: the seats that have offered a rematch. */
  rematch?: Seat[];
  /**
   * The tournament game this table plays (no rematch then: offer the way back
   * to the tournament instead).
   */
  tournament?: TournamentGame;
}

/**
 * Taraguchi's choice after move 4 (the variants list rule 6, docs/rules.md
 * §6), made by the seat holding black.
 */
export type TaraguchiOption =
  /**
   * Option (a): a swap option, black 5 inside the 9x9 square, another swap
   * option, then white 6 anywhere.
   */
  | "single"
  /**
   * Option (b): black offers N fifth moves anywhere; white keeps one and plays
   * 6.
   */
  | "offers";

/** What the seat that must act is asked to do to move the game on. */
export type Task =
  /**
   * Place one stone of `color` as move `move_number` (or pass, if the prompt
   * allows it). `within`, when set, is the side of the square around the
   * centre the stone must go in (1: the centre itself, as for renju's first
   * move).
   */
  | { task: "place"; color: Color; move_number: number; within?: number }
  /**
   * Decide whether to take the other colour (swap) or keep one's own; `color`
   * is the colour the deciding seat holds now.
   */
  | { task: "decide_swap"; color: Color }
  /**
   * Declare how many fifth-move offers black will make, from 1 to `max`
   * (Yamaguchi's opener after placing the opening, Soosõrv's white after
   * placing 4).
   */
  | { task: "declare_offers"; max: number }
  /**
   * Place `count` black fifth-move offers at once, anywhere, no two of them
   * equivalent (`offer_fifths`); together they are move 5.
   */
  | { task: "offer_fifths"; count: number }
  /**
   * Keep one of black's `offers` as black 5 (`keep_fifth`); the others are
   * removed and the same seat then plays white 6.
   */
  | { task: "keep_fifth"; offers: OfferSet }
  /**
   * Taraguchi, after move 4: choose option `single` (a swap option, black 5
   * inside the 9x9 square, a swap option) or `offers` (`offers` fifth-move
   * offers anywhere, white keeping one) (`choose_option`).
   */
  | { task: "choose_option"; offers: number }
  /**
   * Swap2, after the opener's three stones: place white 4 and stay white
   * (`place`, or `keep` first), take black (`swap`: the opener then places
   * white 4), or place white 4 and black 5 (`place_two`: the opener then
   * chooses the colour).
   */
  | { task: "swap2_choice" }
  /**
   * Super Sakata, after black 5 and after each option (c): the seat that did
   * not place the last two stones chooses. `color` is the colour it holds now;
   * `keep` keeps it and `swap` takes the other, as for `decide_swap` (whoever
   * then holds white plays the next stone: option (a) is taking white, option
   * (b) taking black), or `place_two` puts a white and then a black stone on
   * any free points and hands the choice to the other seat (option (c)).
   */
  | { task: "super_sakata_choice"; color: Color };

/**
 * A tie-break an organiser may list (`tie_breaks`), applied in the listed
 * order after the score. The engine defines each (`docs/tournaments.md`,
 * "Standings and tie-breaks").
 */
export type TieBreakName =
  /** The opponents' scores summed (shown `Buch`). */
  | "buchholz"
  /** Buchholz without the best and the worst opponent (`MBuch`). */
  | "median_buchholz"
  /** The Berger coefficient (`SB`). */
  | "sonneborn_berger"
  /** Head-to-head among the tied players (`DE`). */
  | "direct_encounter"
  /** Games won over the board (`Wins`). */
  | "wins"
  /** Games played in the first seat, black (`1st`). */
  | "first_seat_games";

/** A tie-break's value, as text (`7.5`, `3`). */
export interface TieBreakValue {
  /** `Buch`, `MBuch`, `SB`, `DE`, `Wins`, `1st`. */
  name: string;
  value: string;
}

/** A time control (docs/rules.md §7). Times in milliseconds. */
export type TimeControl =
  /** No clocks at all. */
  | { kind: "unlimited" }
  /** Each side has `main_ms`; the first to run out loses (包干制). */
  | { kind: "sudden_death"; main_ms: number }
  /**
   * `main_ms` to start with, plus `increment_ms` after every move (加秒制).
   */
  | { kind: "fischer"; main_ms: number; increment_ms: number }
  /**
   * `main_ms`, then `periods` periods of `period_ms` (读秒). A period is used up
   * only when it runs out before `moves_per_period` moves are made in it;
   * making them starts a fresh period.
   */
  | {
      kind: "byo_yomi";
      main_ms: number;
      periods: number;
      period_ms: number;
      moves_per_period: number;
    }
  /**
   * The eight-stone overtime (docs/rules.md §7): `main_ms` per side; the
   * moment either side's main time runs out, both sides are in overtime (the
   * other's unused main time lapses) and each makes `stones` more moves, each
   * within `move_ms` (a late move loses). The game is drawn once all `2 ×
   * stones` overtime moves are made without a result. Two readings of the
   * source's first sentence are options: `move_limit_in_main` (the plain
   * reading of "步时30秒越时判负") holds every move of the main time to `move_ms`
   * too, and `shared_main` (one reading of "每场5分钟") makes `main_ms` one clock
   * for the whole game, charged to whoever is to move. Both are left out (off)
   * in records from before they existed.
   */
  | {
      kind: "eight_stone";
      main_ms: number;
      move_ms: number;
      stones: number;
      move_limit_in_main?: boolean;
      shared_main?: boolean;
    }
  /**
   * Correspondence (docs/rules.md §7): `move_ms` for every move (time not used
   * is not carried over), and `vacation_ms` per side and game, spent
   * automatically while a move runs past its own time; the side loses on time
   * once both are gone.
   */
  | { kind: "correspondence"; move_ms: number; vacation_ms: number };

/** A time control (docs/rules.md §7). Times in milliseconds. */
export type TimeControlInput =
  /** No clocks at all. */
  | { kind: "unlimited" }
  /** Each side has `main_ms`; the first to run out loses (包干制). */
  | { kind: "sudden_death"; main_ms: number }
  /**
   * `main_ms` to start with, plus `increment_ms` after every move (加秒制).
   */
  | { kind: "fischer"; main_ms: number; increment_ms: number }
  /**
   * `main_ms`, then `periods` periods of `period_ms` (读秒). A period is used up
   * only when it runs out before `moves_per_period` moves are made in it;
   * making them starts a fresh period.
   */
  | {
      kind: "byo_yomi";
      main_ms: number;
      periods: number;
      period_ms: number;
      /** @default 1 */
      moves_per_period?: number;
    }
  /**
   * The eight-stone overtime (docs/rules.md §7): `main_ms` per side; the
   * moment either side's main time runs out, both sides are in overtime (the
   * other's unused main time lapses) and each makes `stones` more moves, each
   * within `move_ms` (a late move loses). The game is drawn once all `2 ×
   * stones` overtime moves are made without a result. Two readings of the
   * source's first sentence are options: `move_limit_in_main` (the plain
   * reading of "步时30秒越时判负") holds every move of the main time to `move_ms`
   * too, and `shared_main` (one reading of "每场5分钟") makes `main_ms` one clock
   * for the whole game, charged to whoever is to move. Both are left out (off)
   * in records from before they existed.
   */
  | {
      kind: "eight_stone";
      main_ms: number;
      move_ms: number;
      move_limit_in_main?: boolean;
      shared_main?: boolean;
      /** @default 8 */
      stones?: number;
    }
  /**
   * Correspondence (docs/rules.md §7): `move_ms` for every move (time not used
   * is not carried over), and `vacation_ms` per side and game, spent
   * automatically while a move runs past its own time; the side loses on time
   * once both are gone.
   */
  | {
      kind: "correspondence";
      move_ms: number;
      /** @default 0 */
      vacation_ms?: number;
    };

/** The kind of a time control, without its times. */
export type TimeKind = "unlimited" | "sudden_death" | "fischer" | "byo_yomi" | "eight_stone" | "correspondence";

/**
 * Which tournament game a table plays (in `matched`, and in the game's record
 * tags): round and board 1-based as the views number them, `game` the 0-based
 * game of the board's match.
 */
export interface TournamentGame {
  tournament: string;
  round: number;
  board: number;
  game: number;
}

/** A player on the entry list. */
export interface TournamentPlayer {
  name: string;
  rating: number;
  withdrawn?: boolean;
}

/** What `create_tournament` asks for. */
export interface TournamentSpec {
  /** Shown to everyone, as a room's name is (`invalid_name`). */
  name: string;
  system: TournamentSystem;
  /** Every game's configuration, as `create_room` takes it. */
  config: GameConfig;
  entry: EntryLimits;
  /**
   * Knockout: a tied match's decider is played at this (faster) time control
   * instead of the event's; without it, at the event's. Its initial time must
   * be below the event's.
   */
  decider_time?: TimeControl;
  /**
   * Arena: how long it runs from the start, in seconds (10 s to 43200 s); no
   * game is paired after it, the games being played then finish and count.
   */
  duration_secs?: number;
  /** Knockout: games per match, odd (best of; 1 by default). */
  games?: number;
  /** Rated games (accounts only). */
  rated?: boolean;
  /** Swiss: the number of rounds (1 to 30). */
  rounds?: number;
  /**
   * Draws every lot (the seeding's seats, round-robin numbers, knockout
   * openers) from this value instead of at random, so the pairings are
   * reproducible; without it, the server draws.
   */
  seed?: number;
  /**
   * When round 1 is paired (Unix ms); without it, when the organiser sends
   * `start_tournament`.
   */
  start_ms?: number;
  /**
   * The tie-breaks in the order they apply, each at most once; without it, the
   * system's default (a Swiss: Buchholz, Sonneborn-Berger, wins; the others:
   * Sonneborn-Berger, direct encounter, wins).
   */
  tie_breaks?: TieBreakName[];
  /**
   * Seconds a game waits for an absent player (offline, or seated at as many
   * tables as allowed) before they lose it by forfeit (both absent: a double
   * forfeit); 60 s when left out, 1 to 600 s.
   */
  wait_secs?: number;
}

/** What `create_tournament` asks for. */
export interface TournamentSpecInput {
  /** Shown to everyone, as a room's name is (`invalid_name`). */
  name: string;
  system: TournamentSystem;
  /** Every game's configuration, as `create_room` takes it. */
  config: GameConfigInput;
  /**
   * Knockout: a tied match's decider is played at this (faster) time control
   * instead of the event's; without it, at the event's. Its initial time must
   * be below the event's.
   */
  decider_time?: TimeControlInput;
  /**
   * Arena: how long it runs from the start, in seconds (10 s to 43200 s); no
   * game is paired after it, the games being played then finish and count.
   */
  duration_secs?: number;
  /** @default {} */
  entry?: EntryLimits;
  /** Knockout: games per match, odd (best of; 1 by default). */
  games?: number;
  /** Rated games (accounts only). */
  rated?: boolean;
  /** Swiss: the number of rounds (1 to 30). */
  rounds?: number;
  /**
   * Draws every lot (the seeding's seats, round-robin numbers, knockout
   * openers) from this value instead of at random, so the pairings are
   * reproducible; without it, the server draws.
   */
  seed?: number;
  /**
   * When round 1 is paired (Unix ms); without it, when the organiser sends
   * `start_tournament`.
   */
  start_ms?: number;
  /**
   * The tie-breaks in the order they apply, each at most once; without it, the
   * system's default (a Swiss: Buchholz, Sonneborn-Berger, wins; the others:
   * Sonneborn-Berger, direct encounter, wins).
   */
  tie_breaks?: TieBreakName[];
  /**
   * Seconds a game waits for an absent player (offline, or seated at as many
   * tables as allowed) before they lose it by forfeit (both absent: a double
   * forfeit); 60 s when left out, 1 to 600 s.
   */
  wait_secs?: number;
}

/** Where an event is in its life. */
export type TournamentState =
  | "finished"
  /** Taking entries. */
  | "open"
  /** Rounds are being played. */
  | "running";

/** An event as lists show it. */
export interface TournamentSummary {
  id: string;
  name: string;
  system: TournamentSystem;
  state: TournamentState;
  organiser: string;
  players: number;
  /** Rounds paired so far. */
  round: number;
  /** Rounds in all (0 until the start fixes it). */
  rounds: number;
  rated: boolean;
  start_ms?: number;
}

/** The pairing system. */
export type TournamentSystem =
  /** Swiss (Dutch system) over `rounds` rounds. */
  | "swiss"
  /** Every player meets every other once (Berger tables). */
  | "round_robin"
  /** Twice, the seats swapped. */
  | "double_round_robin"
  /**
   * Single elimination of best-of-`games` matches (a tie goes to an extra
   * game).
   */
  | "knockout"
  /**
   * A time window of `duration_secs` from the start: a player whose game ends
   * is paired again at once with a free player close in score; ranked by
   * score, then fewer games, then more wins.
   */
  | "arena";

/** An event in full: `tournament` and `tournament_update`. */
export interface TournamentView {
  summary: TournamentSummary;
  spec: TournamentSpec;
  players: TournamentPlayer[];
  rounds: RoundView[];
  standings: StandingView[];
  /** The crosstable as fixed-width text (for a terminal or a file). */
  crosstable: string;
  /**
   * The same crosstable as data, one row per player, for a client's own table.
   */
  cross?: CrossRow[];
  /**
   * Why the next round cannot be paired, while the event waits for the
   * organiser to pair it by hand or end it.
   */
  stalled?: string;
  /**
   * A Swiss with too many rounds for its field: why not every round may be
   * pairable (or, past the most its field can play, why it will not start).
   */
  warning?: string;
}

/**
 * A forbidden-point exercise: black to move in a position from a real renju
 * game where a forbidden point mattered.
 */
export interface TrainerPosition {
  position: string;
  board_size: number;
  black: Point[];
  white: Point[];
  game: TableId;
  /** The black move about to be played in that game. */
  move_number: number;
}

/** The referee's judgement of a trainer answer. */
export interface TrainerVerdict {
  position: string;
  /** Every forbidden point marked with its kind, and nothing else. */
  correct: boolean;
  /**
   * Every point forbidden for black, with the kind the referee gives (the
   * first of overline, double four, double three when several apply).
   */
  forbidden: ForbiddenPoint[];
  /** Marked, and forbidden of the kind marked. */
  right: Point[];
  /** Forbidden, not marked. */
  missed: Point[];
  /** Marked, but not forbidden. */
  wrong: Point[];
  /** Marked and forbidden, but of another kind than marked. */
  wrong_kind: Point[];
}

/** The protocol versions a server speaks, inclusive. */
export interface Versions {
  min: number;
  max: number;
}

/** Why an action was a violation (docs/rules.md §3). */
export type ViolationKind =
  /** A forbidden-move claim that did not hold. */
  | "false_claim";

/** The answer to `hello`: the session is open. */
export interface Welcome {
  /** The protocol version this session speaks (the client's). */
  version: number;
  server: ServerInfo;
  session: SessionId;
  /** You, as others will see you. */
  player: Player;
  limits: Limits;
  /**
   * Optional features this server offers beyond this version's messages
   * (later: `"resume"`, `"chat"`, `"rematch"`, `"accounts"`, `"queue"`). A
   * client uses a reserved message only if its feature is listed.
   */
  features: string[];
  /**
   * Keep it: `hello.resume` with this token after a dropped connection resumes
   * this session (valid while the session lives; see the README's
   * "Reconnecting").
   */
  resume_token?: string;
  /** Whether this `hello` resumed an earlier session. */
  resumed?: boolean;
  /**
   * When resumed: the tables where you sit (send `watch` with `since` for each
   * to get what you missed).
   */
  tables?: TableId[];
}
