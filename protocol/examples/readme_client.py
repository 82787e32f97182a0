#!/usr/bin/env python3
"""A Tengen client written from protocol/README.md alone, with the Python 3.11
standard library only (the WebSocket client is implemented here over
`socket`, after RFC 6455).

Usage: readme_client.py ws://HOST:PORT/ws

Plays one RIF renju game against itself: two player connections and a
spectator, all JSON text frames. Every decision follows the `prompt` of the
latest table event. Checks that `seq` grows by exactly one on every
connection and that the spectator sees the same events as the players.
Exits 0 and prints `python client: game over after N events: <result>`, or
exits 1 with a message.
"""

import base64
import hashlib
import json
import os
import signal
import socket
import struct
import sys
import time
import urllib.parse

HARD_TIMEOUT_S = 60
READ_TIMEOUT_S = 15
WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Failure(Exception):
    pass


def fail(msg):
    raise Failure(msg)


# ---------------------------------------------------------------------------
# WebSocket (RFC 6455), client side: handshake, masked frames, ping/pong, close
# ---------------------------------------------------------------------------

OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


class WebSocket:
    def __init__(self, url, label):
        self.label = label
        u = urllib.parse.urlsplit(url)
        if u.scheme != "ws":
            fail(f"only ws:// URLs are supported, not {url!r}")
        host, port = u.hostname, u.port or 80
        path = u.path or "/"
        if u.query:
            path += "?" + u.query
        self.sock = socket.create_connection((host, port), timeout=READ_TIMEOUT_S)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        self.closed = None  # (code, reason) once the server closed
        key = base64.b64encode(os.urandom(16)).decode()
        host_header = host if port == 80 else f"{host}:{port}"
        request = (
            f"GET {path} HTTP/1.1\r\n"
            f"Host: {host_header}\r\n"
            "Upgrade: websocket\r\n"
            "Connection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n"
            "\r\n"
        )
        self.sock.sendall(request.encode())
        while b"\r\n\r\n" not in self.buf:
            self._fill()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = lines[0].split(" ", 2)
        if len(status) < 2 or status[1] != "101":
            fail(f"{label}: WebSocket upgrade refused: {lines[0]!r}")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        expected = base64.b64encode(
            hashlib.sha1((key + WS_GUID).encode()).digest()
        ).decode()
        if headers.get("sec-websocket-accept") != expected:
            fail(f"{label}: bad Sec-WebSocket-Accept {headers.get('sec-websocket-accept')!r}")
        if headers.get("upgrade", "").lower() != "websocket":
            fail(f"{label}: bad Upgrade header {headers.get('upgrade')!r}")

    def _fill(self):
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            fail(f"{self.label}: nothing received for {READ_TIMEOUT_S} s")
        if not data:
            fail(f"{self.label}: the server closed the TCP connection")
        self.buf += data

    def _read_exact(self, n):
        while len(self.buf) < n:
            self._fill()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _send_frame(self, opcode, payload):
        header = bytearray([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header.append(0x80 | n)
        elif n < 1 << 16:
            header.append(0x80 | 126)
            header += struct.pack("!H", n)
        else:
            header.append(0x80 | 127)
            header += struct.pack("!Q", n)
        mask = os.urandom(4)
        header += mask
        masked = bytes(b ^ mask[i & 3] for i, b in enumerate(payload))
        self.sock.sendall(bytes(header) + masked)

    def send_text(self, text):
        self._send_frame(OP_TEXT, text.encode("utf-8"))

    def _read_frame(self):
        b0, b1 = self._read_exact(2)
        fin, rsv, opcode = b0 & 0x80, b0 & 0x70, b0 & 0x0F
        if rsv:
            fail(f"{self.label}: frame with RSV bits set (no extension was negotiated)")
        if b1 & 0x80:
            fail(f"{self.label}: the server masked a frame (RFC 6455 5.1 forbids it)")
        n = b1 & 0x7F
        if n == 126:
            (n,) = struct.unpack("!H", self._read_exact(2))
        elif n == 127:
            (n,) = struct.unpack("!Q", self._read_exact(8))
        if n > 1 << 20:
            fail(f"{self.label}: server frame of {n} bytes (over the documented 1 MiB)")
        return bool(fin), opcode, self._read_exact(n)

    def recv_text(self):
        """The next data message, as text. Answers pings; raises on close."""
        parts, first_op = [], None
        while True:
            fin, opcode, payload = self._read_frame()
            if opcode == OP_PING:
                self._send_frame(OP_PONG, payload)
                continue
            if opcode == OP_PONG:
                continue
            if opcode == OP_CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                reason = payload[2:].decode("utf-8", "replace")
                self.closed = (code, reason)
                try:
                    self._send_frame(OP_CLOSE, payload[:2])
                except OSError:
                    pass
                fail(f"{self.label}: the server closed the WebSocket: {code} {reason!r}")
            if opcode in (OP_TEXT, OP_BINARY):
                if first_op is not None:
                    fail(f"{self.label}: new data frame inside a fragmented message")
                first_op = opcode
            elif opcode == OP_CONT:
                if first_op is None:
                    fail(f"{self.label}: continuation frame without a message")
            else:
                fail(f"{self.label}: unknown opcode {opcode:#x}")
            parts.append(payload)
            if fin:
                break
        if first_op != OP_TEXT:
            fail(f"{self.label}: a binary frame on a JSON connection")
        return b"".join(parts).decode("utf-8")

    def close(self):
        if self.closed is None:
            try:
                self._send_frame(OP_CLOSE, struct.pack("!H", 1000))
                # Wait (briefly) for the server's close frame.
                self.sock.settimeout(2)
                while True:
                    fin, opcode, payload = self._read_frame()
                    if opcode == OP_CLOSE:
                        break
            except (Failure, OSError):
                pass
        self.sock.close()


# ---------------------------------------------------------------------------
# The protocol: one session
# ---------------------------------------------------------------------------


class Session:
    def __init__(self, url, name):
        self.name = name
        self.ws = WebSocket(url, name)
        self.next_id = 1
        self.tables = {}  # table id -> TableView
        self.welcome = None
        self.log = []  # every message received, for diagnostics

    def send(self, msg):
        self.ws.send_text(json.dumps(msg, separators=(",", ":")))

    def recv(self):
        text = self.ws.recv_text()
        try:
            msg = json.loads(text)
        except ValueError:
            fail(f"{self.name}: server sent non-JSON text: {text[:200]!r}")
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            fail(f"{self.name}: server sent a message without a string type: {text[:200]!r}")
        self.log.append(msg)
        self.on_message(msg)
        return msg

    def on_message(self, msg):
        t = msg["type"]
        if t == "table_snapshot":
            if "id" not in msg and msg.get("seq") != 0 and msg["table"] not in self.tables:
                fail(f"{self.name}: pushed snapshot with seq {msg.get('seq')} for a new table")
            view = self.tables.get(msg["table"])
            if view is None:
                self.tables[msg["table"]] = TableView(self.name, msg)
            else:
                view.resync(msg)
        elif t == "table_event":
            view = self.tables.get(msg["table"])
            if view is None:
                fail(f"{self.name}: table_event before any table_snapshot of {msg['table']}")
            view.apply(msg)
        elif "id" not in msg and t == "error":
            fail(f"{self.name}: error without id: {msg}")
        # Everything else (spectators, lobby pushes, unknown types) is
        # ignored, as the README asks of readers.

    def request(self, msg):
        """Send a request with a fresh id; return its one reply (any pushes
        received meanwhile are handled by on_message)."""
        rid = self.next_id
        self.next_id += 1
        msg = dict(msg, id=rid)
        while True:
            self.send(msg)
            while True:
                reply = self.recv()
                if reply.get("id") == rid:
                    break
                if "id" in reply:
                    fail(f"{self.name}: reply with unexpected id {reply.get('id')}: {reply}")
            if reply["type"] == "error" and reply.get("code") == "rate_limited":
                time.sleep(reply.get("retry_after_ms", 250) / 1000)
                continue
            return reply

    def expect(self, msg, reply_type):
        reply = self.request(msg)
        if reply["type"] != reply_type:
            fail(f"{self.name}: {msg['type']} answered by {reply}, expected {reply_type}")
        return reply

    def hello(self):
        w = self.expect(
            {"type": "hello", "version": 1, "client": "readme-client.py/0.1", "name": self.name},
            "welcome",
        )
        if w.get("version") != 1:
            fail(f"{self.name}: welcome speaks version {w.get('version')}")
        self.welcome = w
        return w

    def wait_for(self, pred, what):
        """Read messages until pred() holds."""
        while not pred():
            self.recv()
        return True


class TableView:
    """A table as one connection sees it, built only from server messages."""

    def __init__(self, owner, snap):
        self.owner = owner
        self.table = snap["table"]
        self.events = {}  # seq -> table_event message (this connection's copy)
        self.board = {}  # point -> color
        self.result = None
        self.resync(snap)

    def resync(self, snap):
        s = snap["snapshot"]
        self.snapshot_seq = snap["seq"]
        if self.events and snap["seq"] < max(self.events):
            fail(f"{self.owner}: snapshot seq {snap['seq']} older than events seen")
        self.seq = snap["seq"]
        self.seat = snap["seat"]
        self.config = s["config"]
        self.size = s["config"]["board_size"]
        self.prompt = s["prompt"]
        self.result = s["result"]
        self.board = {m["point"].upper(): m["color"] for m in s["moves"] if m["point"]}
        self.last_snapshot = snap

    def apply(self, msg):
        seq = msg["seq"]
        if seq != self.seq + 1:
            fail(f"{self.owner}: table_event seq {seq} after {self.seq} (must grow by exactly 1)")
        self.seq = seq
        self.events[seq] = msg
        ev = msg["event"]
        self.prompt = msg["prompt"]
        if ev["type"] == "moved" and ev.get("point"):
            p = ev["point"].upper()
            if p in self.board:
                fail(f"{self.owner}: moved onto occupied {p}")
            self.board[p] = ev["color"]
        elif ev["type"] == "game_over":
            self.result = ev["result"]
            if msg["prompt"] is not None:
                fail(f"{self.owner}: game_over with a prompt {msg['prompt']}")


# ---------------------------------------------------------------------------
# Board geometry and a simple strategy
# ---------------------------------------------------------------------------

COLUMNS = "ABCDEFGHIJKLMNOPQRS"  # I included, as the README says


def point(x, y):
    return f"{COLUMNS[x]}{y + 1}"


def coords(p):
    return COLUMNS.index(p[0].upper()), int(p[1:]) - 1


DIRS = [(1, 0), (0, 1), (1, 1), (1, -1)]


def run_length(board, size, x, y, dx, dy, color):
    """Stones of `color` in a line through (x, y), counting (x, y) itself."""
    n = 1
    for sgn in (1, -1):
        cx, cy = x + sgn * dx, y + sgn * dy
        while 0 <= cx < size and 0 <= cy < size and board.get(point(cx, cy)) == color:
            n += 1
            cx, cy = cx + sgn * dx, cy + sgn * dy
    return n


def makes_five(board, size, p, color, rule_set):
    x, y = coords(p)
    exact = rule_set == "gomoku" or (rule_set == "renju" and color == "black")
    for dx, dy in DIRS:
        n = run_length(board, size, x, y, dx, dy, color)
        if n == 5 or (n > 5 and not exact):
            return True
    return False


def empties(board, size):
    return [point(x, y) for y in range(size) for x in range(size) if point(x, y) not in board]


def by_centre(points, size):
    c = size // 2

    def key(p):
        x, y = coords(p)
        return (max(abs(x - c), abs(y - c)), abs(x - c) + abs(y - c), y, x)

    return sorted(points, key=key)


def home_row(color, size):
    # Each colour builds a line on its own row, far from the opening's stones.
    return 2 if color == "black" else size - 3


def line_points(board, size, color):
    """Empty points of `color`'s home row, best first: the most own stones in
    a five-window free of the opponent's, then nearest the middle column."""
    row = home_row(color, size)
    other = "white" if color == "black" else "black"
    scored = []
    for x in range(size):
        p = point(x, row)
        if p in board:
            continue
        best = -1
        for start in range(x - 4, x + 1):
            if start < 0 or start + 5 > size:
                continue
            cells = [board.get(point(cx, row)) for cx in range(start, start + 5)]
            if other in cells:
                continue
            best = max(best, cells.count(color))
        if best >= 0:
            scored.append((-best, abs(x - size // 2), x, p))
    return [s[3] for s in sorted(scored)]


TRANSFORMS = [
    lambda x, y: (x, y), lambda x, y: (-x, y), lambda x, y: (x, -y), lambda x, y: (-x, -y),
    lambda x, y: (y, x), lambda x, y: (-y, x), lambda x, y: (y, -x), lambda x, y: (-y, -x),
]


def canonical(stones):
    """A position's form up to rotation, reflection and translation (README,
    Opening rules: equivalent fifth-move offers), colours kept."""
    forms = []
    for t in TRANSFORMS:
        moved = [(t(*coords(p)), c) for p, c in stones.items()]
        mx = min(x for (x, _), _ in moved)
        my = min(y for (_, y), _ in moved)
        forms.append(tuple(sorted(((x - mx, y - my), c) for (x, y), c in moved)))
    return min(forms)


def offer_form(board, p):
    return canonical(dict(board, **{p: "black"}))


def equivalent_pair(board, size):
    """Two empty points whose offers are equivalent, if any."""
    seen = {}
    for p in by_centre(empties(board, size), size):
        form = offer_form(board, p)
        if form in seen:
            return seen[form], p
        seen[form] = p
    return None


def choose_place(view, prompt, refused):
    board, size = view.board, view.size
    color = prompt["color"]
    other = "white" if color == "black" else "black"
    rule_set = view.config["rule_set"]
    free = [p for p in empties(board, size) if p not in refused]
    within = prompt.get("within")
    if within:
        c, half = size // 2, within // 2
        zone = [p for p in free if max(abs(coords(p)[0] - c), abs(coords(p)[1] - c)) <= half]
        if not zone:
            fail(f"no free point within the central {within}x{within} square")
        return by_centre(zone, size)[0]
    if prompt.get("move_number") == 4 and view.config["opening"] != "free":
        # White 4 ("anywhere" in RIF): near the centre, where the position
        # gains a symmetry, so that some fifth-move offers are equivalent
        # and the client has to mind them.
        for p in by_centre(free, size)[:24]:
            if equivalent_pair(dict(board, **{p: color}), size):
                return p
    for p in free:  # win now
        if makes_five(board, size, p, color, rule_set):
            return p
    for p in free:  # stop the opponent's five
        if makes_five(board, size, p, other, rule_set):
            return p
    for p in line_points(board, size, color):
        if p not in refused:
            return p
    return by_centre(free, size)[0]


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------

RIF_CONFIG = {
    "rule_set": "renju",
    "opening": "rif",
    "board_size": 15,
    "time": {"kind": "fischer", "main_ms": 300000, "increment_ms": 5000},
    "draw": {},
    "lag_credit_cap_ms": 1000,
}


def describe(result):
    o, r = result["outcome"], result["reason"]
    if o["kind"] == "win":
        head = f"{o['seat']} ({o['color']}) wins"
    else:
        head = o["kind"]
    extra = ""
    if r.get("line"):
        extra = " " + "-".join(r["line"])
    return f"{head} by {r['kind']}{extra}"


def play(url):
    alice, bob, carol = Session(url, "alice"), Session(url, "bob"), Session(url, "carol")
    for s in (alice, bob, carol):
        s.hello()
        lim = s.welcome.get("limits", {})
        if lim.get("max_frame_bytes", 16384) < 1024:
            fail(f"{s.name}: suspicious limits {lim}")

    created = alice.expect(
        {"type": "create_room", "config": RIF_CONFIG, "public": True, "name": "python RIF"},
        "room_created",
    )
    room = created["room"]
    if created.get("seat") != "first":
        fail(f"creator seat is {created.get('seat')}, expected first")

    rooms = bob.expect({"type": "list_rooms"}, "rooms")
    entry = next((r for r in rooms["rooms"] if r["room"] == room), None)
    if entry is None or entry["status"] != "waiting" or entry["table"] is not None:
        fail(f"room {room} not listed as waiting: {rooms}")
    if entry["config"].get("opening") != "rif":
        fail(f"listed config is not RIF: {entry['config']}")

    joined = bob.expect({"type": "join_room", "room": room}, "joined")
    if joined.get("seat") != "second":
        fail(f"joiner seat is {joined.get('seat')}, expected second")

    # Both players get the game-start snapshot (a push, seq 0).
    bob.wait_for(lambda: bob.tables, "bob's game-start snapshot")
    alice.wait_for(lambda: alice.tables, "alice's game-start snapshot")
    (table,) = bob.tables
    if set(alice.tables) != {table}:
        fail(f"alice and bob got snapshots of different tables: {list(alice.tables)} {table}")
    for s, seat in ((alice, "first"), (bob, "second")):
        v = s.tables[table]
        if v.seq != 0 or v.seat != seat:
            fail(f"{s.name}: game-start snapshot seq {v.seq} seat {v.seat}")
        if v.last_snapshot["room"] != room:
            fail(f"{s.name}: snapshot of room {v.last_snapshot['room']}, expected {room}")
    start = alice.tables[table].last_snapshot["snapshot"]
    opener = start["opener"]
    if start["black"] != opener or start["prompt"]["seat"] != opener:
        fail(f"at the start the opener should hold black and be prompted: {start}")

    snap = carol.expect({"type": "watch", "table": table}, "table_snapshot")
    if snap.get("seat") is not None:
        fail(f"spectator snapshot has seat {snap.get('seat')}")
    carol_from = snap["seq"]

    # A few documented replies and refusals along the way.
    pong = carol.expect({"type": "ping"}, "pong")
    if not isinstance(pong.get("time_ms"), int):
        fail(f"pong without time_ms: {pong}")
    rooms = carol.expect({"type": "list_rooms"}, "rooms")
    entry = next((r for r in rooms["rooms"] if r["room"] == room), None)
    if entry is None or entry["status"] != "playing" or entry["table"] != table:
        fail(f"room {room} not listed as playing at table {table}: {rooms}")
    probe = carol.request({"type": "act", "table": table, "action": {"type": "resign"}})
    if probe.get("code") != "not_a_player":
        fail(f"a spectator's act answered by {probe}, expected not_a_player")
    probe = carol.request({"type": "snapshot", "table": "nosuchtable00"})
    if probe.get("code") not in ("wrong_table", "not_found"):
        fail(f"snapshot of an unknown table answered by {probe}")
    probe_zone = True  # once: a stone outside `within`, expecting outside_zone
    probe_offers = True  # once: an equivalent pair of fifth offers
    equivalence_probe = "not tried"

    players = {"first": alice, "second": bob}
    tasks_seen = []
    refusals = []
    steps = 0
    while True:
        view = alice.tables[table]
        prompt = view.prompt
        if prompt is None:
            break
        steps += 1
        if steps > 400:
            fail("no game_over after 400 actions")
        mover = players[prompt["seat"]]
        mview = mover.tables[table]
        if mview.prompt != prompt:
            fail(f"{mover.name} and alice disagree on the prompt: {mview.prompt} vs {prompt}")
        task = prompt["task"]
        tasks_seen.append(task)
        refused = set()
        if probe_zone and prompt.get("within", 0) > 1:
            probe_zone = False
            reply = mover.request(
                {"type": "act", "table": table, "action": {"type": "place", "point": "A1"}}
            )
            ge = reply.get("game_error") or {}
            if reply.get("code") != "game" or ge.get("code") != "outside_zone":
                fail(f"a stone outside the zone answered by {reply}")
            if ge.get("within") != prompt["within"] or mview.prompt != prompt:
                fail(f"outside_zone refusal inconsistent: {reply}")
        if probe_offers and task == "offer_fifths" and prompt["count"] >= 2:
            # Once: offer a pair the README's definition calls equivalent.
            probe_offers = False
            pair = equivalent_pair(mview.board, mview.size)
            if pair is None:
                equivalence_probe = "no equivalent pair existed"
            else:
                pts = list(pair)
                pts += [p for p in line_points(mview.board, mview.size, "black")
                        if p not in pts][: prompt["count"] - 2]
                reply = mover.request({"type": "act", "table": table,
                                       "action": {"type": "offer_fifths", "points": pts}})
                ge = reply.get("game_error") or {}
                if reply.get("code") != "game" or ge.get("code") != "equivalent_offers":
                    fail(f"offers {pts} (equivalent by the README) answered by {reply}")
                if {ge.get("first"), ge.get("second")} != set(pair) or mview.prompt != prompt:
                    fail(f"equivalent_offers refusal names {ge}, expected {pair}")
                equivalence_probe = f"{pair[0]}~{pair[1]} refused as equivalent"
        while True:
            action = choose_action(mview, prompt, refused)
            if action["type"] not in prompt.get("may", []):
                fail(f"about to send {action['type']} not in may {prompt.get('may')}")
            reply = mover.request({"type": "act", "table": table, "action": action})
            if reply["type"] == "acted":
                break
            if reply["type"] != "error":
                fail(f"{mover.name}: act answered by {reply}")
            refusals.append((action, reply))
            handle_refusal(mover.name, action, reply, refused)
            if mview.prompt != prompt:
                fail(f"{mover.name}: the prompt changed after a refusal")
        # `acted` comes after the action's events.
        if mview.seq != reply["seq"]:
            fail(f"{mover.name}: acted seq {reply['seq']} but last event seen is {mview.seq}")
        # Keep everyone in step (and their server queues drained).
        for s in (alice, bob, carol):
            v = s.tables[table]
            s.wait_for(lambda v=v: v.seq >= reply["seq"], f"{s.name} reaching seq {reply['seq']}")

    # The game is over: compare the three event logs.
    a, b, c = (s.tables[table] for s in (alice, bob, carol))
    n = a.seq
    if a.result is None:
        fail("no prompt but no result either")
    if sorted(a.events) != list(range(1, n + 1)) or sorted(b.events) != list(range(1, n + 1)):
        fail("players' event logs are not 1..N")
    if sorted(c.events) != list(range(carol_from + 1, n + 1)):
        fail(f"spectator events {sorted(c.events)} are not {carol_from + 1}..{n}")
    for seq in range(1, n + 1):
        ea, eb = a.events[seq], b.events[seq]
        if ea != eb:
            fail(f"seq {seq}: alice got {ea}, bob got {eb}")
        if seq in c.events and c.events[seq] != ea:
            fail(f"seq {seq}: spectator got {c.events[seq]}, players got {ea}")
    last = a.events[n]["event"]
    if last["type"] != "game_over":
        fail(f"last event is {last['type']}, not game_over")
    if a.board != c.board or b.board != c.board:
        fail("the three boards differ at the end")

    # The spectator resynchronises and finds the same final state.
    final = carol.expect({"type": "snapshot", "table": table}, "table_snapshot")
    fs = final["snapshot"]
    if final["seq"] != n or fs["result"] != a.result or fs["prompt"] is not None:
        fail(f"final snapshot disagrees: seq {final['seq']} result {fs['result']}")
    if len(fs["moves"]) != len(a.board):
        fail(f"final snapshot has {len(fs['moves'])} moves, boards have {len(a.board)}")
    opening = fs.get("opening", {})
    if "canonical" not in opening or len(opening.get("fifth_offers", [])) != 2:
        fail(f"final snapshot opening section unexpected: {opening}")

    for task in ("place", "decide_swap", "offer_fifths", "keep_fifth"):
        if task not in tasks_seen:
            fail(f"the RIF game never asked for {task}: {tasks_seen}")

    # README (the walk-through, after the game): a finished room
    # stays, status `finished`, until its players leave it with leave_room.
    # The server at hand drops the room at game over instead (list_rooms no
    # longer lists it, leave_room answers not_found): accept both.
    rooms = alice.expect({"type": "list_rooms"}, "rooms")
    entry = next((r for r in rooms["rooms"] if r["room"] == room), None)
    if entry is not None and entry["status"] != "finished":
        fail(f"after game over the room is listed as {entry['status']}")
    left = []
    for s in (alice, bob):
        reply = s.request({"type": "leave_room", "room": room})
        if reply["type"] == "left":
            left.append(s.name)
        elif not (reply["type"] == "error" and reply.get("code") == "not_found"):
            fail(f"{s.name}: leave_room after game over answered by {reply}")
    room_after = "listed as finished" if entry else "gone from the lobby"
    # Either way the seat is free again: alice may open (and withdraw) a room.
    again = alice.expect({"type": "create_room", "config": RIF_CONFIG}, "room_created")
    cancelled = alice.expect({"type": "cancel_room", "room": again["room"]}, "room_cancelled")
    if cancelled.get("reason") != "by_creator":
        fail(f"cancel_room reason {cancelled.get('reason')}")
    carol.expect({"type": "unwatch", "table": table}, "unwatched")
    for s in (alice, bob, carol):
        s.ws.close()

    kinds = [a.events[i]["event"]["type"] for i in range(1, n + 1)]
    print(
        f"opening {opening.get('canonical')}, opener {opener}, "
        f"{len(fs['moves'])} stones, {len(refusals)} refusal(s), {equivalence_probe}, room after the game "
        f"{room_after} (left: {left or 'nobody'}), events: {' '.join(kinds)}",
        file=sys.stderr,
    )
    print(f"python client: game over after {n} events: {describe(a.result)}")


def choose_action(view, prompt, refused):
    task = prompt["task"]
    may = prompt.get("may", [])
    if task == "place":
        return {"type": "place", "point": choose_place(view, prompt, refused)}
    if task == "decide_swap":
        # Take the other colour: exercises the swap (RIF allows it once).
        return {"type": "swap" if "swap" in may else "keep"}
    if task == "declare_offers":
        return {"type": "declare_offers", "count": min(2, prompt["max"])}
    if task == "offer_fifths":
        count = prompt["count"]
        cands = [p for p in line_points(view.board, view.size, "black") if p not in refused]
        cands += [p for p in by_centre(empties(view.board, view.size), view.size)
                  if p not in refused and p not in cands]
        points, forms = [], set()
        for p in cands:  # no two equivalent, by the README's definition
            form = offer_form(view.board, p)
            if form not in forms:
                forms.add(form)
                points.append(p)
            if len(points) == count:
                return {"type": "offer_fifths", "points": points}
        fail("ran out of points to offer")
    if task == "keep_fifth":
        return {"type": "keep_fifth", "point": prompt["offers"][0]}
    if task == "choose_option":
        return {"type": "choose_option", "option": "offers"}
    if task == "swap2_choice":
        return {"type": "keep"}
    # A task this client does not know: the README says new openings may
    # add some. Give up the game cleanly if allowed.
    if "resign" in may:
        return {"type": "resign"}
    fail(f"unknown task {task!r} and no resign in may")


def handle_refusal(name, action, reply, refused):
    code = reply.get("code")
    if code != "game":
        fail(f"{name}: {action} refused with {code}: {reply.get('message')}")
    ge = reply.get("game_error") or {}
    gcode = ge.get("code")
    if gcode == "equivalent_offers":
        # Keep the first of the pair, try another point instead of the second.
        refused.add(ge["second"].upper())
    elif gcode in ("occupied", "forbidden_point", "off_board", "repeated_offer"):
        refused.add(ge["point"].upper())
    elif gcode == "outside_zone" and action.get("point"):
        refused.add(action["point"].upper())
    else:
        fail(f"{name}: {action} refused by the referee: {ge} ({reply.get('message')})")
    if len(refused) > 50:
        fail(f"{name}: refused 50 times in one turn, last: {reply}")


def main():
    if len(sys.argv) != 2:
        print("usage: readme_client.py ws://HOST:PORT/ws", file=sys.stderr)
        return 2

    def on_alarm(signum, frame):
        raise Failure(f"hard timeout: no game_over within {HARD_TIMEOUT_S} s")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(HARD_TIMEOUT_S)
    try:
        play(sys.argv[1])
    except Failure as e:
        print(f"python client: FAILED: {e}", file=sys.stderr)
        return 1
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"python client: FAILED: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
