//! The codec on real messages and on hostile input: every message
//! round-trips in both encodings as the same map, every failure gets its
//! documented code (echoing the frame's id when it can be read), and no
//! input makes decoding panic.

use crate::common;

use common::*;
use proptest::prelude::*;
use tengen_protocol::*;

fn all_client_frames() -> Vec<ClientFrame> {
    let mut v = client_examples();
    v.extend(
        walkthrough()
            .into_iter()
            .chain(rif_walkthrough())
            .chain(reconnect_walkthrough())
            .chain(chat_rematch_walkthrough())
            .filter_map(|s| match s {
                Said::Client(_, f) => Some(f),
                Said::Server(..) => None,
            }),
    );
    v
}

fn all_server_frames() -> Vec<ServerFrame> {
    let mut v = server_examples();
    v.extend(
        walkthrough()
            .into_iter()
            .chain(rif_walkthrough())
            .chain(reconnect_walkthrough())
            .chain(chat_rematch_walkthrough())
            .filter_map(|s| match s {
                Said::Server(_, f) => Some(f),
                Said::Client(..) => None,
            }),
    );
    v
}

const BOTH: [Encoding; 2] = [Encoding::Json, Encoding::MsgPack];

/// The MessagePack form read back as a generic value: the same map as the
/// JSON form, key for key.
fn msgpack_as_json(bytes: &[u8]) -> serde_json::Value {
    rmp_serde::from_slice(bytes).unwrap()
}

#[test]
fn every_client_message_round_trips_in_both_encodings_as_the_same_map() {
    let frames = all_client_frames();
    let mut types: Vec<&str> = frames.iter().map(|f| f.msg.type_name()).collect();
    types.sort();
    types.dedup();
    let mut all = ClientMsg::TYPES.to_vec();
    all.sort();
    assert_eq!(types, all, "the examples cover every client message");
    for f in &frames {
        for enc in BOTH {
            let bytes = encode_client(f, enc);
            let back = decode_client(&bytes, enc).unwrap_or_else(|e| panic!("{f:?}: {e}"));
            assert_eq!(&back, f);
        }
        let js = serde_json::to_value(f).unwrap();
        assert_eq!(js["type"], f.msg.type_name());
        assert_eq!(js.get("id").and_then(|v| v.as_u64()), f.id);
        let mp = encode_client(f, Encoding::MsgPack);
        assert!(
            matches!(mp[0], 0x80..=0x8f | 0xde | 0xdf),
            "a MessagePack map"
        );
        assert_eq!(msgpack_as_json(&mp), js);
    }
}

#[test]
fn every_server_message_round_trips_in_both_encodings_as_the_same_map() {
    let frames = all_server_frames();
    let mut types: Vec<&str> = frames.iter().map(|f| f.msg.type_name()).collect();
    types.sort();
    types.dedup();
    let mut all = ServerMsg::TYPES.to_vec();
    all.sort();
    assert_eq!(types, all, "the examples cover every server message");
    for f in &frames {
        for enc in BOTH {
            let bytes = encode_server(f, enc);
            assert_eq!(
                enc.is_text(),
                std::str::from_utf8(&bytes).is_ok() && enc == Encoding::Json
            );
            let back = decode_server(&bytes, enc).unwrap_or_else(|e| panic!("{f:?}: {e}"));
            assert_eq!(&back, f);
        }
        let js = serde_json::to_value(f).unwrap();
        assert_eq!(js["type"], f.msg.type_name());
        assert_eq!(msgpack_as_json(&encode_server(f, Encoding::MsgPack)), js);
    }
}

#[test]
fn messagepack_uses_named_fields() {
    let f = Envelope::with_id(Some(7), ClientMsg::Ping);
    // {"type":"ping","id":7}: a map of two entries with string keys.
    assert_eq!(
        encode_client(&f, Encoding::MsgPack),
        [
            0x82, 0xa4, b't', b'y', b'p', b'e', 0xa4, b'p', b'i', b'n', b'g', 0xa2, b'i', b'd',
            0x07
        ]
    );
}

fn dec(s: &str) -> Result<ClientFrame, DecodeError> {
    decode_client(s.as_bytes(), Encoding::Json)
}

/// The same JSON text, as MessagePack.
fn dec_mp(s: &str) -> Result<ClientFrame, DecodeError> {
    let v: serde_json::Value = serde_json::from_str(s).unwrap();
    decode_client(&rmp_serde::to_vec_named(&v).unwrap(), Encoding::MsgPack)
}

#[test]
fn undecodable_frames_are_bad_frame() {
    for s in [
        "",
        "not json",
        "[1,2]",
        "\"ping\"",
        "{\"type\":\"ping\"} x",
        "{\"type\":7}",
    ] {
        let e = dec(s).unwrap_err();
        assert_eq!(e.code(), ErrorCode::BadFrame, "{s}: {e}");
        assert_eq!(e.id(), None);
    }
    // A map without a type still has a readable id.
    let e = dec(r#"{"id":5,"table":"x"}"#).unwrap_err();
    assert_eq!((e.code(), e.id()), (ErrorCode::BadFrame, Some(5)));
    let e = dec_mp(r#"{"id":5,"type":["ping"]}"#).unwrap_err();
    assert_eq!((e.code(), e.id()), (ErrorCode::BadFrame, Some(5)));
    for bytes in [
        &[0xc1u8][..],
        &[0x82, 0xa4],
        &[0xdf, 0xff, 0xff, 0xff, 0xff],
    ] {
        let e = decode_client(bytes, Encoding::MsgPack).unwrap_err();
        assert_eq!(e.code(), ErrorCode::BadFrame, "{bytes:?}");
    }
    // Exactly one message per frame.
    let mut b = encode_client(&Envelope::push(ClientMsg::Ping), Encoding::MsgPack);
    b.push(0xc0);
    let e = decode_client(&b, Encoding::MsgPack).unwrap_err();
    assert_eq!(e.code(), ErrorCode::BadFrame);
}

#[test]
fn unknown_types_are_unknown_type_with_the_id() {
    for d in [dec, dec_mp] {
        let e = d(r#"{"type":"teleport","id":9,"user":"alice"}"#).unwrap_err();
        assert_eq!(e.code(), ErrorCode::UnknownType);
        assert_eq!(e.id(), Some(9));
        assert!(matches!(&e, DecodeError::UnknownType { kind, .. } if kind == "teleport"));
    }
    // Reserved names are unknown to this version too.
    for r in RESERVED_CLIENT_TYPES {
        let e = dec(&format!(r#"{{"type":"{r}","id":1}}"#)).unwrap_err();
        assert_eq!(e.code(), ErrorCode::UnknownType);
    }
    // A huge type name is not echoed whole.
    let long = "x".repeat(5000);
    let e = dec(&format!(r#"{{"type":"{long}"}}"#)).unwrap_err();
    assert!(e.to_string().len() < 200);
    // Server messages a client does not know are skippable, not fatal.
    let e = decode_server(
        br#"{"type":"league_started","table":"0rgcyfb9b6qv0","opponent":"bob"}"#,
        Encoding::Json,
    )
    .unwrap_err();
    assert_eq!(e.code(), ErrorCode::UnknownType);
}

#[test]
fn known_types_with_bad_fields_are_bad_request_with_the_id() {
    let cases = [
        r#"{"type":"act","id":3,"table":"abc"}"#,
        r#"{"type":"act","id":3,"table":"ABC","action":{"type":"resign"}}"#,
        r#"{"type":"act","id":3,"table":"abc","action":{"type":"undo"}}"#,
        r#"{"type":"act","id":3,"table":"abc","action":{"type":"place","point":"Z100"}}"#,
        r#"{"type":"act","id":3,"table":"abc","action":{"type":"place","point":"H0"}}"#,
        r#"{"type":"act","id":3,"table":"abc","action":{"type":"resign","seat":"first"}}"#,
        r#"{"type":"join_room","id":3,"room":""}"#,
        r#"{"type":"hello","id":3}"#,
        r#"{"type":"hello","id":3,"version":-1}"#,
        r#"{"type":"hello","id":3,"version":1,"name":"0123456789012345678901234567890123"}"#,
        r#"{"type":"create_room","id":3,"config":{"rule_set":"chess"}}"#,
        r#"{"type":"create_room","id":3,"config":{"rule_set":"renju","opening":"free","board_size":15,"time":{"kind":"unlimited"}},"name":"line\nbreak"}"#,
    ];
    for s in cases {
        for d in [dec, dec_mp] {
            let e = d(s).unwrap_err();
            assert_eq!(e.code(), ErrorCode::BadRequest, "{s}: {e}");
            assert_eq!(e.id(), Some(3), "{s}");
        }
    }
    // A malformed id cannot be echoed, but the type is still known.
    for s in [
        r#"{"type":"ping","id":-1}"#,
        r#"{"type":"ping","id":"x"}"#,
        r#"{"type":"ping","id":1.5}"#,
    ] {
        let e = dec(s).unwrap_err();
        assert_eq!((e.code(), e.id()), (ErrorCode::BadRequest, None), "{s}");
    }
}

#[test]
fn the_size_cap_is_checked_before_parsing() {
    let pad = "x".repeat(MAX_FRAME_BYTES);
    let s = format!(r#"{{"type":"ping","id":1,"pad":"{pad}"}}"#);
    let e = dec(&s).unwrap_err();
    assert_eq!(
        e,
        DecodeError::TooLarge {
            size: s.len(),
            max: MAX_FRAME_BYTES
        }
    );
    assert_eq!((e.code(), e.id()), (ErrorCode::TooLarge, None));
    // Just under the cap is fine, and unknown fields are ignored.
    let pad = "x".repeat(MAX_FRAME_BYTES - 40);
    let s = format!(r#"{{"type":"ping","id":1,"pad":"{pad}"}}"#);
    assert!(s.len() <= MAX_FRAME_BYTES);
    assert_eq!(
        dec(&s).unwrap(),
        Envelope::with_id(Some(1), ClientMsg::Ping)
    );
    // A configured cap applies instead.
    let e = decode::<ClientMsg>(br#"{"type":"ping"}"#, Encoding::Json, 10).unwrap_err();
    assert_eq!(e.code(), ErrorCode::TooLarge);
}

#[test]
fn deep_nesting_is_refused_without_exhausting_the_stack() {
    let deep_json = format!("{}{}", "[".repeat(8_000), "]".repeat(8_000));
    assert_eq!(dec(&deep_json).unwrap_err().code(), ErrorCode::BadFrame);
    let inner = format!(
        r#"{{"type":"ping","id":4,"x":{}{}}}"#,
        "[".repeat(120),
        "]".repeat(120)
    );
    let deeper = format!(
        r#"{{"type":"ping","id":4,"x":{}{}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    assert!(dec(&deeper).is_err());
    let arrays = vec![0x91u8; MAX_FRAME_BYTES];
    assert!(decode_client(&arrays, Encoding::MsgPack).is_err());
    let mut maps = Vec::new();
    for _ in 0..MAX_FRAME_BYTES / 3 {
        maps.extend([0x81u8, 0xa1, b'x']);
    }
    maps.push(0xc0);
    assert!(decode_client(&maps, Encoding::MsgPack).is_err());
    // Inside a known message, past MAX_DEPTH: too deep to read at all.
    let v: serde_json::Value = serde_json::from_str(&inner).unwrap();
    let e = decode_client(&rmp_serde::to_vec_named(&v).unwrap(), Encoding::MsgPack).unwrap_err();
    assert_eq!(e.code(), ErrorCode::BadFrame);
}

/// A `ping` whose ignored field `x` nests arrays so that the whole
/// message (its own map counted) is `depth` deep (and whose field `y`
/// holds brackets and an escaped quote in a string).
fn ping_nested(depth: usize) -> String {
    let arrays = depth - 1;
    format!(
        r#"{{"type":"ping","id":4,"y":"[{{]}}\"","x":{}{}}}"#,
        "[".repeat(arrays),
        "]".repeat(arrays)
    )
}

#[test]
fn nesting_is_read_to_exactly_the_documented_depth() {
    // JSON: MAX_JSON_DEPTH levels read, one more refused (brackets in a
    // string do not count).
    assert_eq!(MAX_JSON_DEPTH, 128);
    let ok = dec(&ping_nested(MAX_JSON_DEPTH)).unwrap();
    assert_eq!(ok, Envelope::with_id(Some(4), ClientMsg::Ping));
    let e = dec(&ping_nested(MAX_JSON_DEPTH + 1)).unwrap_err();
    assert_eq!(e.code(), ErrorCode::BadFrame, "{e}");
    assert!(e.to_string().contains("deeper than 128"), "{e}");
    // MessagePack: MAX_DEPTH levels read, one more refused.
    assert_eq!(MAX_DEPTH, 32);
    let packed = |depth: usize| {
        let v: serde_json::Value = serde_json::from_str(&ping_nested(depth)).unwrap();
        rmp_serde::to_vec_named(&v).unwrap()
    };
    let ok = decode_client(&packed(MAX_DEPTH), Encoding::MsgPack).unwrap();
    assert_eq!(ok, Envelope::with_id(Some(4), ClientMsg::Ping));
    let e = decode_client(&packed(MAX_DEPTH + 1), Encoding::MsgPack).unwrap_err();
    assert_eq!(e.code(), ErrorCode::BadFrame, "{e}");
}

#[test]
fn error_replies_stay_small_whatever_the_input_quotes() {
    let long = "x".repeat(10_000);
    for s in [
        format!(r#"{{"type":"act","id":1,"table":"abc","action":{{"type":"{long}"}}}}"#),
        format!(r#"{{"type":"create_room","id":1,"config":{{"rule_set":"{long}"}}}}"#),
        format!(r#"{{"type":"{long}","id":1}}"#),
    ] {
        let e = dec(&s).unwrap_err();
        let reply = encode_server(&e.reply(), Encoding::Json);
        assert!(reply.len() < 400, "{}", String::from_utf8_lossy(&reply));
        assert_eq!(e.id(), Some(1));
    }
}

#[test]
fn the_limits_fit_real_messages() {
    // The largest client message: a full configuration and the longest
    // name in four-byte characters, well under the frame cap.
    let big = Envelope::with_id(
        Some(u64::MAX),
        ClientMsg::CreateRoom {
            rated: false,
            config: tengen_rules::game::GameConfig::new(tengen_rules::game::RuleSet::Renju)
                .with_time(tengen_rules::game::TimeControl::ByoYomi {
                    main_ms: u64::MAX,
                    periods: u32::MAX,
                    period_ms: u64::MAX,
                    moves_per_period: u32::MAX,
                })
                .with_draw(tengen_rules::game::DrawPolicy {
                    max_offers: Some(u32::MAX),
                    answer_ms: Some(u64::MAX),
                }),
            public: false,
            name: Some("🀄".repeat(tengen_protocol::limits::MAX_ROOM_NAME_CHARS)),
            chat: false,
        },
    );
    for enc in BOTH {
        let bytes = encode_client(&big, enc);
        assert!(bytes.len() < 1024, "{}", bytes.len());
        assert_eq!(decode_client(&bytes, enc).unwrap(), big);
    }
    // The largest server messages fit the client's cap: a full list of
    // rooms, and a snapshot of a full 19x19 board.
    let mut info = room_info(RoomStatus::Playing, u32::MAX);
    info.name = Some("🀄".repeat(tengen_protocol::limits::MAX_ROOM_NAME_CHARS));
    let rooms = Envelope::push(ServerMsg::Rooms {
        rooms: vec![info; MAX_ROOMS_LISTED],
        truncated: true,
    });
    let mut snap = match &server_examples()[14].msg {
        ServerMsg::TableSnapshot(s) => (**s).clone(),
        other => panic!("{other:?}"),
    };
    snap.snapshot.moves = (0..361u32)
        .map(|i| tengen_rules::game::Move {
            number: i + 1,
            seat: tengen_rules::game::Seat::First,
            color: tengen_rules::Color::Black,
            point: Some(tengen_rules::Point::new((i % 19) as u8, (i / 19) as u8)),
            board: 0,
        })
        .collect();
    let snap = Envelope::push(ServerMsg::TableSnapshot(Box::new(snap)));
    for enc in BOTH {
        let r = encode_server(&rooms, enc);
        assert!(r.len() < 400 * 1024, "rooms: {}", r.len());
        assert_eq!(decode_server(&r, enc).unwrap(), rooms);
        let s = encode_server(&snap, enc);
        assert!(s.len() < 40 * 1024, "snapshot: {}", s.len());
        assert_eq!(decode_server(&s, enc).unwrap(), snap);
    }
}

#[test]
fn a_decode_error_becomes_an_error_reply_with_the_id() {
    let e = dec(r#"{"type":"teleport","id":77}"#).unwrap_err();
    let reply = e.reply();
    assert_eq!(reply.id, Some(77));
    let js = serde_json::to_value(&reply).unwrap();
    assert_eq!(js["type"], "error");
    assert_eq!(js["code"], "unknown_type");
    assert_eq!(js["id"], 77);
    assert_eq!(Encoding::of_frame(true), Encoding::Json);
    assert_eq!(Encoding::of_frame(false), Encoding::MsgPack);
}

#[test]
fn server_errors_from_a_newer_server_still_decode() {
    let f = decode_server(
        br#"{"type":"error","id":2,"code":"account_locked","message":"m","until":5}"#,
        Encoding::Json,
    )
    .unwrap();
    match f.msg {
        ServerMsg::Error(b) => assert_eq!(b.code, ErrorCode::Other),
        other => panic!("{other:?}"),
    }
}

/// Any JSON value, nested a little.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<u64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_map(serde_json::Value::from),
        prop::sample::select(vec![
            "type",
            "id",
            "act",
            "hello",
            "place",
            "H8",
            "table",
            "abc",
            "ping",
            "chat",
            "",
            "rematch",
            "watch",
            "players",
            "spectators",
        ])
        .prop_map(serde_json::Value::from),
        ".{0,12}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "type", "id", "table", "room", "action", "point", "version", "config", "name",
                    "x", "since", "text", "resume", "chat", "channel", "from", "seat",
                ])
                .prop_map(String::from),
                inner,
                0..6
            )
            .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Decodes in both directions and both encodings; an accepted frame must
/// re-encode to a frame that decodes to the same value.
fn decode_everything(bytes: &[u8]) {
    for enc in BOTH {
        if let Ok(f) = decode_client(bytes, enc) {
            assert_eq!(decode_client(&encode_client(&f, enc), enc).unwrap(), f);
        }
        if let Ok(f) = decode_server(bytes, enc) {
            assert_eq!(decode_server(&encode_server(&f, enc), enc).unwrap(), f);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        decode_everything(&bytes);
    }

    #[test]
    fn random_values_never_panic(v in json_value(), ty in prop::sample::select(
        ClientMsg::TYPES.iter().chain(ServerMsg::TYPES).copied().collect::<Vec<_>>())) {
        decode_everything(&serde_json::to_vec(&v).unwrap());
        decode_everything(&rmp_serde::to_vec_named(&v).unwrap());
        // The same fields under a real type.
        if let serde_json::Value::Object(mut m) = v {
            m.insert("type".into(), ty.into());
            let v = serde_json::Value::Object(m);
            decode_everything(&serde_json::to_vec(&v).unwrap());
            decode_everything(&rmp_serde::to_vec_named(&v).unwrap());
        }
    }

    #[test]
    fn mutated_real_frames_never_panic(
        which in 0usize..64, enc in prop::sample::select(BOTH.to_vec()),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        cut in any::<prop::sample::Index>(),
    ) {
        let frames = all_server_frames();
        let mut bytes = encode_server(&frames[which % frames.len()], enc);
        for (at, b) in edits {
            let i = at.index(bytes.len());
            bytes[i] = b;
        }
        decode_everything(&bytes);
        let n = cut.index(bytes.len());
        decode_everything(&bytes[..n]);
    }
}
