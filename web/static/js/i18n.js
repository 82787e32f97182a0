// English and Simplified Chinese. The rules' vocabulary follows the Chinese
// competition rules; the canonical openings' names come from the server
// (romanised Japanese and Chinese).

/** @type {Record<string, Record<string, string>>} */
const STRINGS = {
  en: {
    'nav.lobby': 'Lobby', 'nav.tv': 'TV', 'nav.leaderboard': 'Leaderboard', 'nav.account': 'Account',
    'net.reconnecting': 'Connection lost: reconnecting…', 'net.connecting': 'Connecting…', 'net.closed': 'Disconnected. Reload the page.',
    'games.title': 'Your games', 'games.against': 'against {name}', 'games.your_move': 'your move', 'games.their_move': "{name}'s move", 'games.over': 'finished',
    'games.elsewhere': 'A game of yours is open in another tab or on another device.', 'games.new_tab': 'Open a new tab',
    'games.stale': 'Your earlier session has ended (its games are over): this is a new one.',
    'lobby.rooms': 'Rooms', 'lobby.none': 'No rooms yet: create one.', 'lobby.create': 'Create a room', 'lobby.join': 'Join', 'lobby.watch': 'Watch',
    'lobby.rule': 'Rules', 'lobby.opening': 'Opening', 'lobby.time': 'Time', 'lobby.players': 'Players', 'lobby.spectators': 'Spectators',
    'lobby.status': 'Status', 'lobby.kind': 'Kind', 'lobby.return': 'Your game', 'lobby.chat_off': 'no chat', 'lobby.rated': 'rated', 'lobby.casual': 'casual', 'lobby.waiting': 'waiting', 'lobby.playing': 'playing', 'lobby.finished': 'finished',
    'lobby.challenge': 'Challenge a player', 'lobby.challenge.send': 'Challenge', 'lobby.queue': 'Rated queue', 'lobby.queue.join': 'Find a rated opponent',
    'lobby.computer': 'Play the computer', 'lobby.computer.level': 'Level', 'lobby.computer.play': 'Play',
    'lobby.computer.hint': 'The rules and time set above.', 'lobby.computer.colour': 'You play', 'lobby.computer.lot': 'by lot', 'lobby.computer.black': 'black (you open)', 'lobby.computer.white': 'white',
    'lobby.computer.1': '1 (beginner)', 'lobby.computer.2': '2', 'lobby.computer.3': '3', 'lobby.computer.4': '4', 'lobby.computer.5': '5 (strongest)',
    'lobby.queue.leave': 'Stop waiting', 'lobby.queue.waiting': 'Waiting for an opponent: {s} s', 'lobby.queue.login': 'Log in to play rated games.',
    'lobby.waitroom': 'Your room is open: waiting for an opponent.', 'lobby.cancel': 'Cancel', 'lobby.invite': 'Invite link',
    'lobby.challenged': '{name} challenges you: {config}', 'lobby.accept': 'Accept', 'lobby.decline': 'Decline',
    'form.rule_set': 'Rule set', 'form.opening': 'Opening rule', 'form.n': 'N (offers)', 'form.board': 'Board', 'form.time': 'Time control',
    'form.main': 'Main (min)', 'form.increment': 'Increment (s)', 'form.periods': 'Periods', 'form.period': 'Period (s)', 'form.moves': 'Moves per period',
    'form.move': 'Overtime move (s)', 'form.move_limit_in_main': 'The move limit in main time too', 'form.shared_main': 'One main time for the game (shared)', 'form.stones': 'Overtime stones', 'form.days': 'Days per move', 'form.vacation': 'Vacation days',
    'form.forbidden': 'Forbidden moves', 'form.draw_max': 'Draw offers per player', 'form.draw_answer': 'Draw answer time (s)',
    'form.public': 'Listed in the lobby', 'form.chat': 'Chat on', 'form.rated': 'Rated', 'form.name': 'Room name', 'form.player': 'Player name',
    'time.unlimited': 'Unlimited', 'time.sudden_death': 'Sudden death', 'time.fischer': 'Fischer', 'time.byo_yomi': 'Byo-yomi',
    'time.eight_stone': 'Eight-stone overtime', 'time.shared_main': 'one main time for both', 'time.move_limit_in_main': '{s} s a move in main time too', 'time.correspondence': 'Correspondence', 'time.corr_short': '{d} d/move, {v} d vacation',
    'clock.stones': '{n} left', 'clock.vacation': 'vacation {t}', 'clock.days': '{d}d {h}h',
    'forbidden.claim': 'Claim (white claims)', 'forbidden.block': 'Block (refused)', 'forbidden.lose': 'Lose at once',
    'rule.renju': 'Renju', 'rule.gomoku': 'Gomoku', 'rule.freestyle': 'Free-style', 'rule.twin': 'Twin (two boards)',
    'task.stones_left': ' (stone {k} of 2 this turn)', 'game.board_n': 'board {n}',
    'open.free': 'Free', 'open.swap_after_three': 'Swap after 3', 'open.rif': 'RIF', 'open.yamaguchi': 'Yamaguchi', 'open.soosorv': 'Soosõrv',
    'open.taraguchi': 'Taraguchi', 'open.tarannikov': 'Tarannikov', 'open.swap2': 'Swap2',
    'open.jonsson': 'Jonsson', 'open.yamaguchi_52': 'Yamaguchi (52 openings)', 'open.yamaguchi_variant': 'Yamaguchi variant',
    'open.sakata': 'Sakata', 'open.super_sakata': 'Super Sakata',
    'color.black': 'Black', 'color.white': 'White',
    'player.bot': 'bot', 'game.you': 'you', 'game.turn': '{who} to play: {task}', 'game.your_turn': 'Your turn: {task}', 'game.spectators': '{n} watching',
    'task.place': 'place {color} {n}', 'task.within': ' (within the central {w}×{w})', 'task.decide_swap': 'swap or keep {color}',
    'task.declare_offers': 'declare the number of fifth-move offers (1–{max})', 'task.offer_fifths': 'place {count} fifth-move offers, then send them',
    'task.keep_fifth': 'choose which offer stays as black 5', 'task.choose_option': 'choose: one fifth move, or {offers} offers', 'task.swap2_choice': 'place white 4, swap, or place two stones',
    'task.super_sakata_choice': 'keep {color}, swap, or place two more stones (white, then black)',
    'act.swap': 'Swap', 'act.keep': 'Keep', 'act.pass': 'Pass', 'act.resign': 'Resign', 'act.resign.sure': 'Really resign?', 'act.yes': 'Yes, resign', 'act.no': 'No',
    'act.offer_draw': 'Offer a draw', 'act.accept_draw': 'Accept the draw', 'act.decline_draw': 'Decline the draw',
    'act.abort': 'Abort', 'act.declare': 'Declare', 'act.send_offers': 'Send the offers', 'act.clear': 'Clear', 'act.single': 'One fifth move', 'act.offers': '{n} offers',
    'act.place_two': 'Place two (white 4, then black 5)', 'act.place_two_more': 'Place two (white, then black)', 'act.rematch': 'Rematch', 'act.leave': 'Back to the lobby',
    'game.draw_offered': '{who} offers a draw', 'game.rematch_offered': '{who} wants a rematch', 'game.away': '{who} is away: {s} s to come back',
    'game.moves': 'Moves', 'game.chat': 'Chat', 'game.chat.players': 'players', 'game.chat.spectators': 'spectators', 'game.say': 'Say', 'game.chat_off': 'Chat is off in this room.', 'game.aborted_by': 'A moderator aborted the game: {reason}', 'game.room_closed': 'A moderator closed the room: {reason}',
    'game.numbers': 'Move numbers', 'game.confirm': 'Click twice to play', 'game.download': 'Download', 'game.live': 'Live',
    'clock.periods': '{n} periods', 'clock.last_period': 'last period',
    'viewer.twin': 'A twin game (two boards): its stones are listed on the right (1: board 1, 2: board 2); download the record to replay it (tengen replay).',
    'result.win': '{who} ({color}) wins', 'result.draw': 'Draw', 'result.aborted': 'Aborted',
    'reason.five': 'five in a row', 'reason.forbidden_claimed': 'forbidden move claimed', 'reason.forbidden_played': 'forbidden move', 'reason.time': 'on time',
    'reason.resignation': 'by resignation', 'reason.abandonment': 'by abandonment', 'reason.violations': 'false claims', 'reason.draw_agreed': 'agreed',
    'reason.twin_fives': 'a five on both boards in one turn', 'reason.one_board_five': 'a five on one board only',
    'reason.both_passed': 'both passed', 'reason.board_full': 'board full', 'reason.overtime_spent': 'overtime stones all played', 'reason.aborted': 'aborted', 'reason.aborted_by': 'by {who}', 'reason.aborted_server': 'by the server', 'reason.arbiter': 'aborted by a moderator',
    'acct.register': 'Register', 'acct.login': 'Log in', 'acct.logout': 'Log out', 'acct.logoutEverywhere': 'Log out everywhere', 'acct.name': 'Name', 'acct.password': 'Password', 'acct.guest': 'guest',
    'acct.profile': 'Profile', 'acct.close': 'Close',
    'tv.none': 'No live game right now.', 'tv.title': 'Tengen TV',
    'lb.title': 'Leaderboard', 'lb.bots': 'Bots', 'lb.rank': '#', 'lb.player': 'Player', 'lb.rating': 'Rating', 'lb.games': 'Games', 'lb.wdl': 'W/D/L', 'lb.inactive': 'Inactive', 'lb.empty': 'Nobody is established yet.',
    'profile.since': 'Member since {d}', 'profile.history': 'Games', 'profile.none': 'No rated games yet.', 'profile.more': 'Older games', 'profile.reset': 'rating changes of {game} reversed by a moderator',
    'viewer.title': 'Game {id}', 'err.not_found': 'Not found.',
    'an.title': 'Analysis', 'an.analyze': 'Analyze', 'an.vct': 'VCT too (slower)', 'an.running': 'Analyzing…',
    'an.none': 'No forced win was missed.', 'an.missed': 'Forced wins missed: {n}. Pick one to see its line.',
    'an.item': 'Move {n} ({move}) missed a {kind}: {line}', 'an.undecided': 'Undecided (search budget spent) at moves {list}.',
    'an.busy': 'The server is busy analysing other games: try again in {s} s.',
    'nav.tournaments': 'Tournaments', 'title.tournaments': 'Tournaments', 'title.tournament': 'Tournament',
    'tour.list.open': 'Upcoming', 'tour.list.running': 'Running', 'tour.list.finished': 'Finished', 'tour.none': 'None.',
    'tour.name': 'Name', 'tour.system': 'System', 'tour.players': 'Players', 'tour.round': 'Round', 'tour.organiser': 'Organiser', 'tour.start': 'Start',
    'tour.by_organiser': 'when the organiser starts it', 'tour.create': 'Create a tournament', 'tour.login': 'Log in to organise a tournament.',
    'tour.sys.swiss': 'Swiss', 'tour.sys.round_robin': 'Round robin', 'tour.sys.double_round_robin': 'Double round robin', 'tour.sys.knockout': 'Knockout', 'tour.sys.arena': 'Arena',
    'tour.rounds': 'Rounds', 'tour.minutes': 'Minutes (arena)', 'tour.games': 'Match length', 'tour.best_of': 'best of {n}', 'tour.n_rounds': '{n} rounds', 'tour.n_minutes': '{n} min',
    'tour.min_rating': 'Lowest rating', 'tour.max_rating': 'Highest rating', 'tour.max_players': 'Most players',
    'tour.accounts_only': 'accounts only', 'tour.bots': 'bots may enter', 'tour.open_to_all': 'open to all',
    'tour.tb_hint': 'Tie-breaks after the score, in order (none chosen: the system\'s own).', 'tour.tb_n': 'Tie-break {n}', 'tour.tb_default': "the system's own",
    'tb.buchholz': 'Buchholz', 'tb.median_buchholz': 'Median Buchholz', 'tb.sonneborn_berger': 'Sonneborn-Berger', 'tb.direct_encounter': 'Head-to-head',
    'tb.wins': 'Wins', 'tb.first_seat_games': 'Games as black',
    'tbl.Buch': 'Buchholz', 'tbl.MBuch': 'Median Buchholz', 'tbl.SB': 'Sonneborn-Berger', 'tbl.DE': 'Head-to-head', 'tbl.Wins': 'Wins', 'tbl.1st': 'Games as black',
    'tbl.Games': 'Games',
    'xt.1': 'beat no. {n}{colour}', 'xt.=': 'drew with no. {n}{colour}', 'xt.0': 'lost to no. {n}{colour}', 'xt.+': 'won by forfeit against no. {n}', 'xt.-': 'lost by forfeit to no. {n}',
    'xt.U': 'a full-point bye', 'xt.H': 'a half-point bye', 'xt.Z': 'absent', 'xt.pending': 'playing no. {n}{colour}', 'xt.b': ' with black', 'xt.w': ' with white',
    'tour.state.open': 'Taking entries', 'tour.state.running': 'Running', 'tour.state.finished': 'Finished', 'tour.round_of': 'round {r} of {n}',
    'tour.join': 'Join', 'tour.withdraw': 'Withdraw', 'tour.start_now': 'Start now', 'tour.login_join': 'Log in to join.', 'tour.export': 'Download TRF',
    'tour.stalled': 'Waiting for the organiser', 'tour.pair_hand': 'Pair by hand', 'tour.end': 'End the event', 'tour.pair_help': 'A board a line: first, second (bye: name)',
    'tour.game': 'Games', 'tour.kind': 'Kind', 'tour.entry': 'Entry', 'tour.max_n': 'at most {n} players', 'tour.tie_breaks': 'Tie-breaks',
    'tour.players_n': 'Players ({n})', 'tour.withdrawn': 'withdrawn', 'tour.no_players': 'Nobody has joined yet.',
    'tour.pairings': 'Pairings', 'tour.round_n': 'Round {n}', 'tour.bye': 'bye', 'tour.wins': '{name} wins',
    'tour.standings': 'Standings', 'tour.points': 'Points', 'tour.crosstable': 'Crosstable',
    'title.play': 'Play', 'title.watch': 'Watch', 'title.tv': 'TV', 'title.leaderboard': 'Leaderboard', 'title.profile': 'Profile', 'title.game': 'Game',
    'absence.grace': '{who} is away: {s} s to come back; their clock runs.', 'absence.claim': '{who} has left: their clock runs on. Claim the win, call it a draw, or wait.',
    'absence.win_soon': '{who} is away: if not back in {s} s, the game is yours.', 'absence.both_abort': 'Both players are away: the game is aborted if neither is back in {s} s.', 'absence.both_draw': 'Both players are away: the game is drawn if neither is back in {s} s.', 'absence.both_clock': 'Both players are away: the clocks decide.', 'theme.auto': 'Theme: the system\'s', 'theme.dark': 'Theme: dark', 'theme.light': 'Theme: light', 'game.tap_again': 'Tap {point} again to play it.', 'notify.your_move': 'Your move', 'game.draw_declined': '{who} declined your draw offer.', 'game.gone': 'away',
    'act.claim_win': 'Claim the win', 'act.call_draw': 'Call it a draw', 'act.wait': 'Wait', 'absence.waiting': 'Waiting for {who}: their clock runs.',
    'act.claim_at': 'Claim {point} forbidden', 'act.claim_pick': 'Claim another stone…', 'act.claim_cancel': 'Cancel the claim', 'game.claim_pick': 'Click the black stone you claim is forbidden.', 'act.end_turn': 'End the turn (one stone)', 'act.request_takeback': 'Ask for a takeback',
    'act.accept_takeback': 'Allow the takeback', 'act.decline_takeback': 'Refuse the takeback', 'game.takeback_asked': '{who} asks to take back a move', 'game.takeback_sent': 'Takeback asked: waiting for the answer.', 'act.decline_rematch': 'Decline', 'act.to_tournament': 'Back to the tournament',
    'rematch.offer': '{who} offers a rematch: {config}', 'rematch.cancelled': 'The rematch offer is gone.', 'rematch.waiting': 'Rematch offered: waiting for {who}.',
    'claim.kind': '{point} ({kind})', 'claim.false': 'False claim at {point}: a violation ({n} of 2).',
    'reason.draw_called': 'draw called (opponent away)', 'reason.both_away': 'both away',
    'rec.swapped': 'swapped', 'rec.kept': 'kept', 'rec.offers': 'fifth-move offers: {list}, kept {kept}', 'rec.opening': 'Opening', 'rec.result': 'Result', 'rec.event': 'Event', 'rec.alt': 'Fifth-move offers', 'rec.termination': 'Termination',
    'profile.col.date': 'Date', 'profile.col.opponent': 'Opponent', 'profile.col.color': 'Colour', 'profile.col.rule': 'Rules', 'profile.col.result': 'Result', 'profile.col.opening': 'Opening',
    'res.win': 'won', 'res.loss': 'lost', 'res.draw': 'draw', 'res.aborted': 'aborted',
    'nav.explorer': 'Explorer', 'nav.puzzles': 'Puzzles', 'nav.trainer': 'Trainer',
    'title.explorer': 'Opening explorer', 'title.puzzles': 'Puzzles', 'title.trainer': 'Forbidden-point trainer',
    'ex.player': 'Player (their games only)', 'ex.color': 'Their colour', 'ex.any_color': 'either colour', 'ex.apply': 'Show', 'ex.path': 'Moves',
    'ex.start': 'Start', 'ex.move': 'Move', 'ex.games': 'Games', 'ex.results': 'Black / draw / white', 'ex.rating': 'Avg. rating',
    'ex.position': '{n} games reached this position; {who} to move.', 'ex.none': 'No game went on from here.', 'ex.deep': 'Games are indexed {n} moves deep.',
    'ex.speed': 'Time control', 'ex.any_speed': 'any time control', 'ex.speed.bullet': 'bullet', 'ex.speed.blitz': 'blitz', 'ex.speed.rapid': 'rapid',
    'ex.speed.classical': 'classical', 'ex.speed.correspondence': 'correspondence', 'ex.speed.unlimited': 'unlimited', 'ex.band': 'Average rating', 'ex.any_band': 'any rating',
    'ex.unrated': 'unrated', 'ex.since': 'From month', 'ex.until': 'To month', 'ex.offers': 'Fifth-move offers', 'ex.offer': 'Offer', 'ex.offered': 'Offered', 'ex.kept': 'Kept',
    'pz.theme': 'Theme', 'pz.any_theme': 'any theme', 'pz.of_game': 'Puzzles from this game', 'pz.at_move': 'move {n}',
    'ex.latest': 'Latest games', 'ex.result.black': 'black won', 'ex.result.white': 'white won', 'ex.result.draw': 'draw',
    'pz.rating': 'Puzzle rating {r} ({n} tries)', 'pz.theme.vcf': 'VCF', 'pz.theme.vct': 'VCT', 'pz.theme.black': 'black', 'pz.theme.white': 'white', 'pz.theme.forbidden': 'forbidden-point defence',
    'pz.daily_of': 'daily puzzle of {d}', 'pz.from_game': 'from the game (move {n})', 'pz.to_play': '{who} to play and win.',
    'pz.keep_going': 'Good. The defender answered {p}: go on.', 'pz.solved': 'Solved!', 'pz.failed': '{p} lets the win go.', 'pz.failed.forbidden': '{p} is forbidden for black.',
    'pz.solution': 'A winning line: {line}.', 'pz.rating_change': 'Your puzzle rating: {a} → {b}.', 'pz.next': 'Next puzzle', 'pz.daily': 'Daily puzzle', 'pz.retry': 'Try again',
    'tr.kind': 'Mark as', 'tr.from': 'Black to play: the position before move {n} of', 'tr.game': 'this game',
    'tr.ask': 'Mark every point forbidden for black, with its kind, then check.', 'tr.submit': 'Check', 'tr.next': 'Next position',
    'tr.correct': 'Correct: every forbidden point, of the right kind.', 'tr.incorrect': 'Not quite.', 'tr.right': 'Right: {p}', 'tr.missed': 'Missed: {p}',
    'tr.wrong': 'Not forbidden: {p}', 'tr.wrong_kind': 'Forbidden, but of another kind: {p}', 'tr.all': 'Forbidden for black: {p}.', 'tr.none': 'No point is forbidden here.',
    'nav.lag': 'Lag', 'title.lag': 'Lag', 'lag.server': 'Server latency', 'lag.net': 'Your network', 'lag.unit': 'Milliseconds, this server',
    'lag.server.hint': 'The median time this server takes to pass a move on to your opponent.',
    'lag.net.hint': 'Your round trip to the server and back; each move, your clock is credited part of it.',
    'lag.history': 'Round trips, the latest on the right', 'lag.rtt_median': 'Median of the last {n}: {ms} ms',
    'lag.window': 'Over the last {m} minutes: {n} moves, 9 in 10 within {ms} ms.', 'lag.empty': 'No moves in the last {m} minutes.',
    'lag.moves': 'Move', 'lag.moves.hint': 'From a move\'s arrival at the server to its sending to your opponent and the spectators.', 'lag.store': 'Saving', 'lag.store.hint': 'The wait for the move to be stored safely, part of the time above.',
    'lag.p50': 'Median', 'lag.p90': '90%', 'lag.p99': '99%', 'lag.max': 'Longest', 'lag.count': 'Moves', 'lag.tables': 'Games in play: ', 'lag.connections': 'Connected (a tab each): ',
  },
  zh: {
    'nav.tournaments': '比赛', 'title.tournaments': '比赛', 'title.tournament': '比赛',
    'tour.list.open': '即将开始', 'tour.list.running': '进行中', 'tour.list.finished': '已结束', 'tour.none': '暂无。',
    'tour.name': '名称', 'tour.system': '赛制', 'tour.players': '人数', 'tour.round': '轮次', 'tour.organiser': '组织者', 'tour.start': '开始时间',
    'tour.by_organiser': '由组织者开始', 'tour.create': '创建比赛', 'tour.login': '登录后可组织比赛。',
    'tour.sys.swiss': '瑞士制', 'tour.sys.round_robin': '单循环', 'tour.sys.double_round_robin': '双循环', 'tour.sys.knockout': '淘汰赛', 'tour.sys.arena': '竞技场',
    'tour.rounds': '轮数', 'tour.minutes': '时长（分钟，竞技场）', 'tour.games': '每场局数', 'tour.best_of': '{n} 局定胜负', 'tour.n_rounds': '{n} 轮', 'tour.n_minutes': '{n} 分钟',
    'tour.min_rating': '最低等级分', 'tour.max_rating': '最高等级分', 'tour.max_players': '人数上限',
    'tour.accounts_only': '仅限注册账户', 'tour.bots': '允许机器人', 'tour.open_to_all': '不限',
    'tour.tb_hint': '积分相同时依次比较（不选则用赛制默认）。', 'tour.tb_n': '第 {n} 比较项', 'tour.tb_default': '赛制默认',
    'tb.buchholz': '对手分', 'tb.median_buchholz': '中间对手分', 'tb.sonneborn_berger': '索伯分', 'tb.direct_encounter': '直接对局',
    'tb.wins': '胜局数', 'tb.first_seat_games': '执黑局数',
    'tbl.Buch': '对手分', 'tbl.MBuch': '中间对手分', 'tbl.SB': '索伯分', 'tbl.DE': '直接对局', 'tbl.Wins': '胜局数', 'tbl.1st': '执黑局数',
    'tbl.Games': '局数',
    'xt.1': '胜第 {n} 名{colour}', 'xt.=': '和第 {n} 名{colour}', 'xt.0': '负第 {n} 名{colour}', 'xt.+': '对第 {n} 名不战而胜', 'xt.-': '对第 {n} 名弃权负',
    'xt.U': '轮空（整分）', 'xt.H': '轮空（半分）', 'xt.Z': '缺席', 'xt.pending': '正与第 {n} 名对局{colour}', 'xt.b': '（执黑）', 'xt.w': '（执白）',
    'tour.state.open': '报名中', 'tour.state.running': '进行中', 'tour.state.finished': '已结束', 'tour.round_of': '第 {r} 轮，共 {n} 轮',
    'tour.join': '报名', 'tour.withdraw': '退出', 'tour.start_now': '现在开始', 'tour.login_join': '登录后可报名。', 'tour.export': '下载 TRF',
    'tour.stalled': '等待组织者', 'tour.pair_hand': '手动编排', 'tour.end': '结束比赛', 'tour.pair_help': '每行一台：先手, 后手（轮空: 名字）',
    'tour.game': '对局', 'tour.kind': '类型', 'tour.entry': '报名条件', 'tour.max_n': '最多 {n} 人', 'tour.tie_breaks': '比较项',
    'tour.players_n': '棋手（{n}）', 'tour.withdrawn': '已退出', 'tour.no_players': '还没有人报名。',
    'tour.pairings': '对阵', 'tour.round_n': '第 {n} 轮', 'tour.bye': '轮空', 'tour.wins': '{name} 胜',
    'tour.standings': '排名', 'tour.points': '积分', 'tour.crosstable': '成绩表',
    'nav.lobby': '大厅', 'nav.tv': '直播', 'nav.leaderboard': '排行榜', 'nav.account': '账户',
    'games.title': '我的对局', 'games.against': '对手 {name}', 'games.your_move': '轮到你', 'games.their_move': '轮到{name}', 'games.over': '已结束',
    'games.elsewhere': '你有对局正在另一个标签页或设备上进行。', 'games.new_tab': '打开新标签页',
    'games.stale': '你之前的会话已结束（其中的对局都已结束）：这是一个新的会话。',
    'net.reconnecting': '连接中断：正在重新连接…', 'net.connecting': '正在连接…', 'net.closed': '连接已断开，请刷新页面。',
    'lobby.rooms': '房间', 'lobby.none': '还没有房间：创建一个吧。', 'lobby.create': '创建房间', 'lobby.join': '加入', 'lobby.watch': '观战',
    'lobby.rule': '规则', 'lobby.opening': '开局', 'lobby.time': '用时', 'lobby.players': '棋手', 'lobby.spectators': '观众',
    'lobby.status': '状态', 'lobby.kind': '类型', 'lobby.return': '你的对局', 'lobby.chat_off': '无聊天', 'lobby.rated': '积分', 'lobby.casual': '友谊', 'lobby.waiting': '等待中', 'lobby.playing': '对局中', 'lobby.finished': '已结束',
    'lobby.challenge': '挑战棋手', 'lobby.challenge.send': '挑战', 'lobby.queue': '积分匹配', 'lobby.queue.join': '寻找积分对手',
    'lobby.computer': '人机对弈', 'lobby.computer.level': '级别', 'lobby.computer.play': '开始',
    'lobby.computer.hint': '规则与用时按上面的设置。', 'lobby.computer.colour': '执子', 'lobby.computer.lot': '抽签', 'lobby.computer.black': '黑（先行）', 'lobby.computer.white': '白',
    'lobby.computer.1': '1（入门）', 'lobby.computer.2': '2', 'lobby.computer.3': '3', 'lobby.computer.4': '4', 'lobby.computer.5': '5（最强）',
    'lobby.queue.leave': '停止等待', 'lobby.queue.waiting': '正在等待对手：{s} 秒', 'lobby.queue.login': '登录后可下积分棋。',
    'lobby.waitroom': '房间已开：等待对手。', 'lobby.cancel': '取消', 'lobby.invite': '邀请链接',
    'lobby.challenged': '{name} 向你挑战：{config}', 'lobby.accept': '接受', 'lobby.decline': '拒绝',
    'form.rule_set': '规则', 'form.opening': '开局规则', 'form.n': 'N（打点数）', 'form.board': '棋盘', 'form.time': '用时方式',
    'form.main': '基本用时（分）', 'form.increment': '每步加秒', 'form.periods': '读秒次数', 'form.period': '读秒（秒）', 'form.moves': '每次读秒步数',
    'form.move': '读秒每步（秒）', 'form.move_limit_in_main': '基本时间内也限步时', 'form.shared_main': '全场共用基本时间', 'form.stones': '读秒子数', 'form.days': '每步天数', 'form.vacation': '假期天数',
    'form.forbidden': '禁手处理', 'form.draw_max': '每方提和次数', 'form.draw_answer': '应答提和时限（秒）',
    'form.public': '在大厅列出', 'form.chat': '允许聊天', 'form.rated': '积分', 'form.name': '房间名', 'form.player': '棋手名',
    'time.unlimited': '不限时', 'time.sudden_death': '包干', 'time.fischer': '费舍尔加秒', 'time.byo_yomi': '读秒',
    'time.eight_stone': '八子读秒', 'time.shared_main': '双方共用基本时间', 'time.move_limit_in_main': '基本时间内每步 {s} 秒', 'time.correspondence': '通信对局', 'time.corr_short': '每步{d}天，假期{v}天',
    'clock.stones': '余{n}子', 'clock.vacation': '假期 {t}', 'clock.days': '{d}天{h}小时',
    'forbidden.claim': '指出（白方指禁）', 'forbidden.block': '禁止落子', 'forbidden.lose': '立即判负',
    'rule.renju': '连珠', 'rule.gomoku': '五子棋', 'rule.freestyle': '无禁手', 'rule.twin': '职业制传统五子棋（双棋盘）',
    'task.stones_left': '（本回合第 {k} 子，共 2 子）', 'game.board_n': '棋盘 {n}',
    'open.free': '自由开局', 'open.swap_after_three': '三手交换', 'open.rif': 'RIF 规则', 'open.yamaguchi': '山口规则', 'open.soosorv': '索索夫规则',
    'open.taraguchi': '塔拉古奇规则', 'open.tarannikov': '塔兰尼科夫规则', 'open.swap2': '二次交换',
    'open.jonsson': 'Jonsson 规则', 'open.yamaguchi_52': '山口规则（52 种开局）', 'open.yamaguchi_variant': '山口规则的变化',
    'open.sakata': '坂田规则', 'open.super_sakata': '超级坂田规则',
    'color.black': '黑', 'color.white': '白',
    'player.bot': '机器人', 'game.you': '你', 'game.turn': '轮到 {who}：{task}', 'game.your_turn': '轮到你：{task}', 'game.spectators': '{n} 人观战',
    'task.place': '下{color}第 {n} 手', 'task.within': '（在中央 {w}×{w} 内）', 'task.decide_swap': '交换或保持{color}',
    'task.declare_offers': '声明五手打点数（1–{max}）', 'task.offer_fifths': '放置 {count} 个五手打点，然后提交',
    'task.keep_fifth': '选择保留哪个打点作为黑 5', 'task.choose_option': '选择：一个第五手，或 {offers} 个打点', 'task.swap2_choice': '下白 4、交换，或连下两子',
    'task.super_sakata_choice': '保持{color}、交换，或再下两子（先白后黑）',
    'act.swap': '交换', 'act.keep': '不交换', 'act.pass': '弃权', 'act.resign': '认输', 'act.resign.sure': '确定认输？', 'act.yes': '确定认输', 'act.no': '取消',
    'act.offer_draw': '提和', 'act.accept_draw': '同意和棋', 'act.decline_draw': '拒绝和棋',
    'act.abort': '中止', 'act.declare': '声明', 'act.send_offers': '提交打点', 'act.clear': '清除', 'act.single': '一个第五手', 'act.offers': '{n} 个打点',
    'act.place_two': '连下两子（白 4，然后黑 5）', 'act.place_two_more': '再下两子（先白后黑）', 'act.rematch': '再来一局', 'act.leave': '返回大厅',
    'game.draw_offered': '{who} 提和', 'game.rematch_offered': '{who} 想再下一局', 'game.away': '{who} 已离开：{s} 秒内可回来',
    'game.moves': '棋谱', 'game.chat': '聊天', 'game.chat.players': '棋手', 'game.chat.spectators': '观众', 'game.say': '发送', 'game.chat_off': '本房间关闭了聊天。', 'game.aborted_by': '管理员中止了对局：{reason}', 'game.room_closed': '管理员关闭了房间：{reason}',
    'game.numbers': '显示手数', 'game.confirm': '点两次落子', 'game.download': '下载', 'game.live': '实时',
    'clock.periods': '读秒 {n} 次', 'clock.last_period': '最后一次读秒',
    'viewer.twin': '双棋盘对局：右侧列出每一手（1：棋盘 1，2：棋盘 2）；可下载棋谱用 tengen replay 复盘。',
    'result.win': '{who}（{color}）胜', 'result.draw': '和棋', 'result.aborted': '已中止',
    'reason.five': '成五', 'reason.forbidden_claimed': '指出禁手', 'reason.forbidden_played': '禁手', 'reason.time': '超时',
    'reason.resignation': '认输', 'reason.abandonment': '离开', 'reason.violations': '错误指禁', 'reason.draw_agreed': '协议和棋',
    'reason.twin_fives': '同一回合两盘成五', 'reason.one_board_five': '只在一盘成五',
    'reason.both_passed': '双方弃权', 'reason.board_full': '满盘', 'reason.overtime_spent': '八子下完', 'reason.aborted': '中止', 'reason.aborted_by': '由 {who} 中止', 'reason.aborted_server': '由服务器中止', 'reason.arbiter': '管理员中止',
    'acct.register': '注册', 'acct.login': '登录', 'acct.logout': '退出', 'acct.logoutEverywhere': '在所有设备上退出', 'acct.name': '用户名', 'acct.password': '密码', 'acct.guest': '游客',
    'acct.profile': '个人资料', 'acct.close': '关闭',
    'tv.none': '现在没有对局。', 'tv.title': '天元直播',
    'lb.title': '排行榜', 'lb.bots': '机器人', 'lb.rank': '#', 'lb.player': '棋手', 'lb.rating': '等级分', 'lb.games': '局数', 'lb.wdl': '胜/和/负', 'lb.inactive': '不活跃', 'lb.empty': '还没有定级的棋手。',
    'profile.since': '{d} 注册', 'profile.history': '对局', 'profile.none': '还没有积分对局。', 'profile.more': '更早的对局', 'profile.reset': '管理员撤销了 {game} 的积分变化',
    'viewer.title': '对局 {id}', 'err.not_found': '未找到。',
    'an.title': '分析', 'an.analyze': '分析', 'an.vct': '同时搜索 VCT（较慢）', 'an.running': '分析中…',
    'an.none': '没有漏掉必胜。', 'an.missed': '漏掉必胜：{n} 处。点选一处查看必胜路线。',
    'an.item': '第 {n} 手（{move}）漏掉 {kind}：{line}', 'an.undecided': '第 {list} 手未能判定（搜索预算用尽）。',
    'an.busy': '服务器正在分析其他对局，请 {s} 秒后再试。',
    'title.play': '对局', 'title.watch': '观战', 'title.tv': '直播', 'title.leaderboard': '排行榜', 'title.profile': '个人资料', 'title.game': '棋谱',
    'absence.grace': '{who} 已离开：{s} 秒内可回来；其时钟照走。', 'absence.claim': '{who} 已离开，其时钟照走。可以判胜、判和，或继续等待。',
    'absence.win_soon': '{who} 已离开：{s} 秒内不回来则你胜。', 'absence.both_abort': '双方都已离开：{s} 秒内无人回来则对局中止。', 'absence.both_draw': '双方都已离开：{s} 秒内无人回来则判和。', 'absence.both_clock': '双方都已离开：由时钟决定。', 'theme.auto': '主题：跟随系统', 'theme.dark': '主题：深色', 'theme.light': '主题：浅色', 'game.tap_again': '再点一次 {point} 落子。', 'notify.your_move': '轮到你了', 'game.draw_declined': '{who} 拒绝了你的提和。', 'game.gone': '已离开',
    'act.claim_win': '判我方胜', 'act.call_draw': '判和', 'act.wait': '等待', 'absence.waiting': '等待 {who}：其时钟照走。',
    'act.claim_at': '指出 {point} 禁手', 'act.claim_pick': '指出其他棋子…', 'act.claim_cancel': '取消指禁', 'game.claim_pick': '请点击你指出的禁手黑子。', 'act.end_turn': '结束本回合（一子）', 'act.request_takeback': '请求悔棋',
    'act.accept_takeback': '同意悔棋', 'act.decline_takeback': '拒绝悔棋', 'game.takeback_asked': '{who} 请求悔棋', 'game.takeback_sent': '已请求悔棋：等待回答。', 'act.decline_rematch': '拒绝', 'act.to_tournament': '返回比赛',
    'rematch.offer': '{who} 邀请再下一局：{config}', 'rematch.cancelled': '再来一局的邀请已取消。', 'rematch.waiting': '已邀请再来一局：等待 {who}。',
    'claim.kind': '{point}（{kind}）', 'claim.false': '错误指禁 {point}：违规（第 {n} 次，共 2 次）。',
    'reason.draw_called': '对方离开，判和', 'reason.both_away': '双方离开',
    'rec.swapped': '交换', 'rec.kept': '不交换', 'rec.offers': '第五手打点：{list}，留下 {kept}', 'rec.opening': '开局', 'rec.result': '结果', 'rec.event': '比赛', 'rec.alt': '第五手打点', 'rec.termination': '终局原因',
    'profile.col.date': '日期', 'profile.col.opponent': '对手', 'profile.col.color': '执色', 'profile.col.rule': '规则', 'profile.col.result': '结果', 'profile.col.opening': '开局',
    'res.win': '胜', 'res.loss': '负', 'res.draw': '和', 'res.aborted': '中止',
    'nav.explorer': '开局库', 'nav.puzzles': '习题', 'nav.trainer': '禁手练习',
    'title.explorer': '开局库', 'title.puzzles': '习题', 'title.trainer': '禁手练习',
    'ex.player': '棋手（只看其对局）', 'ex.color': '其执色', 'ex.any_color': '黑白均可', 'ex.apply': '显示', 'ex.path': '着法',
    'ex.start': '开始', 'ex.move': '着法', 'ex.games': '局数', 'ex.results': '黑胜 / 和 / 白胜', 'ex.rating': '平均等级分',
    'ex.position': '{n} 局到达此局面；轮到{who}方。', 'ex.none': '没有对局从这里继续。', 'ex.deep': '对局只收录前 {n} 手。',
    'ex.speed': '用时', 'ex.any_speed': '任意用时', 'ex.speed.bullet': '超快棋', 'ex.speed.blitz': '快棋', 'ex.speed.rapid': '中速棋',
    'ex.speed.classical': '慢棋', 'ex.speed.correspondence': '通讯棋', 'ex.speed.unlimited': '不计时', 'ex.band': '平均等级分', 'ex.any_band': '任意等级分',
    'ex.unrated': '无等级分', 'ex.since': '起始月份', 'ex.until': '截止月份', 'ex.offers': '五手打点', 'ex.offer': '打点', 'ex.offered': '提出', 'ex.kept': '保留',
    'pz.theme': '主题', 'pz.any_theme': '任意主题', 'pz.of_game': '出自本局的习题', 'pz.at_move': '第 {n} 手',
    'ex.latest': '最近的对局', 'ex.result.black': '黑胜', 'ex.result.white': '白胜', 'ex.result.draw': '和棋',
    'pz.rating': '习题等级分 {r}（{n} 次尝试）', 'pz.theme.vcf': '连续冲四胜（VCF）', 'pz.theme.vct': '连续追胜（VCT）', 'pz.theme.black': '黑方', 'pz.theme.white': '白方', 'pz.theme.forbidden': '禁手防守',
    'pz.daily_of': '{d} 的每日一题', 'pz.from_game': '出自对局（第 {n} 手）', 'pz.to_play': '{who}方先走必胜。',
    'pz.keep_going': '好。防守方应 {p}：继续。', 'pz.solved': '解出！', 'pz.failed': '{p} 放走了胜机。', 'pz.failed.forbidden': '{p} 是黑方禁手。',
    'pz.solution': '一条胜利路线：{line}。', 'pz.rating_change': '你的习题等级分：{a} → {b}。', 'pz.next': '下一题', 'pz.daily': '每日一题', 'pz.retry': '再试一次',
    'tr.kind': '标记为', 'tr.from': '黑方走：此局面出自', 'tr.game': '这盘对局',
    'tr.ask': '标出黑方所有禁手点及其种类，然后检查。', 'tr.submit': '检查', 'tr.next': '下一个局面',
    'tr.correct': '正确：所有禁手点，种类也对。', 'tr.incorrect': '不完全对。', 'tr.right': '正确：{p}', 'tr.missed': '漏标：{p}',
    'tr.wrong': '不是禁手：{p}', 'tr.wrong_kind': '是禁手，但种类不对：{p}', 'tr.all': '黑方禁手点：{p}。', 'tr.none': '此处没有禁手点。',
    'nav.lag': '延迟', 'title.lag': '延迟', 'lag.server': '服务器延迟', 'lag.net': '你的网络', 'lag.unit': '单位：毫秒（本服务器）',
    'lag.server.hint': '服务器把一手棋转给对手所用时间的中位数。',
    'lag.net.hint': '你到服务器的往返时间；每走一手，时钟会补回其中一部分。',
    'lag.history': '往返时间，最新的在右边', 'lag.rtt_median': '最近 {n} 次的中位数：{ms} ms',
    'lag.window': '最近 {m} 分钟：{n} 手，十手中有九手在 {ms} ms 以内。', 'lag.empty': '最近 {m} 分钟没有人行棋。',
    'lag.moves': '行棋', 'lag.moves.hint': '从一手棋到达服务器，到发给对手和观众。', 'lag.store': '保存', 'lag.store.hint': '等待这一手安全存好的时间，已含在上面的时间里。',
    'lag.p50': '中位数', 'lag.p90': '90%', 'lag.p99': '99%', 'lag.max': '最长', 'lag.count': '手数', 'lag.tables': '进行中的对局：', 'lag.connections': '在线连接（每个标签页一个）：',
  },
};

let lang = (() => {
  try { return localStorage.getItem('tengen.lang') || (navigator.language.startsWith('zh') ? 'zh' : 'en'); } catch { return 'en'; }
})();

export function getLang() { return lang; }
/** @param {string} l */
export function setLang(l) {
  lang = l === 'zh' ? 'zh' : 'en';
  try { localStorage.setItem('tengen.lang', lang); } catch { /* private mode */ }
  document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
}

/**
 * @typedef {import('tengen-protocol').ErrorBody} ErrorBody
 * @typedef {import('tengen-protocol').ErrorCode} ErrorCode
 * @typedef {import('tengen-protocol').GameError} GameError
 * @typedef {import('tengen-protocol').GameConfigInput} GameConfigInput
 * @typedef {import('tengen-protocol').OpeningInput} OpeningInput
 * @typedef {import('tengen-protocol').TimeControlInput} TimeControlInput
 */

/** The string `key` with `{var}`s filled in. @param {string} key @param {Record<string, string|number>} [vars] */
export function t(key, vars) {
  let s = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  if (vars) for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, String(v));
  return s;
}

/** What the server's refusals say, in Chinese, by code (the server's own
 * English `message` is shown as it is on the English page). `game` refusals
 * are keyed by their `game_error.code`. The type makes the type check fail
 * for a code the protocol has and this table lacks.
 * @type {Record<Exclude<ErrorCode, 'game'> | GameError['code'], string>} */
const ERRORS_ZH = {
  game_over: '对局已结束。', time_up: '时间已到。', not_your_turn: '现在不是你的回合。',
  off_board: '{point} 不在棋盘上。', occupied: '{point} 已有棋子。',
  outside_zone: '这一手须下在中央 {within}×{within} 之内。',
  forbidden_point: '{point} 是黑棋的禁手（{kind}）。',
  pass_not_allowed: '盘上不足五子时不能弃权。', pass_during_opening: '开局阶段不能弃权。',
  swap_decision_pending: '请先决定是否交换。', no_swap_decision: '现在没有交换要决定。',
  offer_not_allowed: '只能在自己落子后、对方行动前提和。', offer_pending: '你已有一个提和在等待回答。',
  offer_limit: '提和次数不能比对方多两次以上。', offer_cap: '本房间每人最多提和 {max} 次。',
  no_draw_offer: '现在没有提和需要回答。', claims_disabled: '本房间不能指出禁手。',
  claim_by_black: '只有白方可以指出禁手。', abort_not_allowed: '双方都已行棋，不能再取消对局。',
  wrong_action: '对局现在等待的不是这个操作。',
  offer_count_out_of_range: '打点数须在 1 到 {max} 之间，不能是 {count}。',
  wrong_offer_count: '应打 {expected} 个点，不是 {got} 个。', repeated_offer: '{point} 打了两次。',
  equivalent_offers: '{first} 与 {second} 是等价的打点。', not_an_offer: '{point} 不是黑方的打点。',
  opening_five: '{point} 会在双方颜色确定之前成五。',
  playbanned: '你近期放弃（中止、离开或一步未走就超时）的等级分对局过多：{left}后才能再下等级分对局；非等级分对局不受影响。',
  bad_request: '请求无效。', rate_limited: '操作太频繁，请稍候。', not_found: '未找到。', room_full: '房间已满。',
  not_a_player: '观战者不能行棋。', wrong_table: '你不在这一桌。', already_seated: '你已在这个房间或入座已达上限。',
  game_in_progress: '对局正在进行：请先认输或取消。', limit_reached: '已达上限。', invalid_config: '房间设置无效。',
  unavailable: '服务器现在无法处理，请稍后再试。', internal: '服务器出错。', chat_off: '本房间关闭了聊天。',
  no_rematch: '现在不能再来一局。', name_taken: '这个名字已被注册。', invalid_name: '名字无效。',
  weak_password: '密码太短。', bad_credentials: '名字或密码不对。', token_expired: '登录已过期，请重新登录。',
  login_required: '需要先登录。', not_absent: '对方没有离开超过宽限时间。',
  tournament_closed: '比赛已不接受此操作。', already_joined: '你已报名。', not_joined: '你没有报名这个比赛。',
  entry_refused: '你不符合报名条件。', too_few_players: '人数不足，无法开始。', not_organiser: '只有组织者可以这样做。',
  bad_frame: '无法解读客户端发来的消息。', unknown_type: '服务器不认识这个请求。', too_large: '消息太大，已被丢弃。',
  unsupported_version: '客户端版本与服务器不兼容，请刷新页面。', hello_required: '连接尚未建立，请稍候。',
  already_played: '这个账户已下过棋，不能改为机器人账户。', bot_refused: '这个机器人不接受这样的对局（规则、用时或对手）。',
  banned: '这个账户已被封禁。', forbidden: '你没有这样做的权限。', blocked: '你们之间有一方屏蔽了对方。',
  already_reset: '这局的等级分变化已经撤销过了。', not_rated: '这局没有改变任何等级分。',
  time_went_backwards: '服务器时间出错，请重试。',
  no_such_board: '没有编号为 {board} 的棋盘（编号从 0 起，本房间共 {boards} 个）。', no_pass_in_twin: '双棋盘对局不能弃权：一个回合下一子或两子。',
  claim_not_black_stone: '{point} 不是黑子：只能指出黑方的禁手子。', claim_not_possible: '现在无禁可指：黑方最后一子不是禁手，盘上也没有长连。',
  turn_cannot_end: '只有下完第一子后才能结束本回合。', takebacks_off: '本局不能悔棋（等级分对局和比赛对局都不能）。',
  nothing_to_take_back: '你还没有可以悔的棋。', takeback_pending: '已有一个悔棋请求在等待回答。',
  takeback_declined_already: '你的悔棋请求已被拒绝：下一手之后才能再请求。', no_takeback_request: '现在没有悔棋请求需要回答。',
};

/** @type {Record<string, string>} */
const FORBIDDEN_ZH = { 'double-three': '三三', 'double-four': '四四', overline: '长连' };

/** A refusal's text in the page's language: the server's message on the
 * English page; on the Chinese page the translation of its code, with the
 * points, kinds and counts it names, or the server's message for a code
 * not translated. @param {ErrorBody} err */
export function errorText(err) {
  const fallback = err.message ?? err.code;
  if (lang !== 'zh') return fallback;
  /** The code to translate and the values its text names. @type {Record<string, unknown> & {code: string}} */
  const detail = err.code === 'game' && err.game_error ? err.game_error
    : err.code === 'playbanned' ? { code: err.code, left: waitZh(err.retry_after_ms ?? 0) }
    : { code: err.code };
  const text = /** @type {Record<string, string | undefined>} */ (ERRORS_ZH)[detail.code];
  if (!text) return fallback;
  return text.replace(/\{(\w+)\}/g, (/** @type {string} */ m, /** @type {string} */ k) => {
    const v = detail[k];
    if (v == null) return m;
    return k === 'kind' ? (FORBIDDEN_ZH[String(v)] ?? String(v)) : String(v);
  });
}

/** A fair-play wait in Chinese words ("2 小时 15 分钟"), rounded up to the
 * minute. @param {number} ms */
function waitZh(ms) {
  const minutes = Math.max(1, Math.ceil(ms / 60000));
  const [d, h, m] = [Math.floor(minutes / 1440), Math.floor(minutes / 60) % 24, minutes % 60];
  return [[d, '天'], [h, '小时'], [m, '分钟']].filter(([n]) => n).map(([n, u]) => `${n} ${u}`).join(' ');
}

/** An opening rule's name (with its N). @param {OpeningInput} opening */
export function openingName(opening) {
  if (typeof opening === 'string') return t(`open.${opening}`);
  const [k, v] = Object.entries(opening)[0];
  return `${t(`open.${k}`)}-${v.n ?? (k === 'soosorv' ? 8 : 10)}`;
}

/** A day in milliseconds: correspondence times are given in days. */
export const DAY_MS = 86400000;

/** A time control in short form ("5+5", "10 min", "10+3×30s"). @param {TimeControlInput} tc */
export function timeName(tc) {
  const min = (/** @type {number} */ ms) => `${Math.round(ms / 6000) / 10}`;
  switch (tc.kind) {
    case 'sudden_death': return `${min(tc.main_ms)} min`;
    case 'fischer': return `${min(tc.main_ms)}+${tc.increment_ms / 1000}`;
    case 'byo_yomi': return `${min(tc.main_ms)}+${tc.periods}×${tc.period_ms / 1000}s`;
    case 'eight_stone': return `${min(tc.main_ms)}+${tc.stones ?? 8}×${tc.move_ms / 1000}s (${t('time.eight_stone')}${tc.shared_main ? `, ${t('time.shared_main')}` : ''}${tc.move_limit_in_main ? `, ${t('time.move_limit_in_main', { s: tc.move_ms / 1000 })}` : ''})`;
    case 'correspondence': return t('time.corr_short', { d: Math.round(tc.move_ms / DAY_MS * 10) / 10, v: Math.round((tc.vacation_ms || 0) / DAY_MS * 10) / 10 });
    default: return t('time.unlimited');
  }
}

/** A configuration in one line (a server's, or a form's). @param {GameConfigInput} c */
export function configName(c) {
  const forb = c.rule_set === 'renju' ? ` · ${t(`forbidden.${c.forbidden ?? 'claim'}`)}` : '';
  return `${t(`rule.${c.rule_set}`)} ${c.board_size}×${c.board_size} · ${openingName(c.opening)} · ${timeName(c.time)}${forb}`;
}

/** Translates every `data-i18n` element under `root`. @param {ParentNode} root */
export function translate(root) {
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(/** @type {string} */ (e.getAttribute('data-i18n')));
}

/** A forbidden move's kind (`double-three`, `double-four`, `overline`) in the page's language. @param {string} kind */
export function kindName(kind) {
  return lang === 'zh' ? (FORBIDDEN_ZH[kind] ?? kind) : kind;
}
