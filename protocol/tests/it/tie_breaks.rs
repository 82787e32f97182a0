//! A tournament's tie-break order on the wire: it round-trips in both
//! encodings in the order given, an event created without one (an older
//! client) reads as "the system's default", and an unknown name, a repeat
//! or an overlong list is `bad_request` with the request's id.

use tengen_protocol::*;

const BASE: &str = r#""tournament":{"name":"Final","system":"round_robin","config":{"rule_set":"renju","opening":"free","board_size":15,"time":{"kind":"unlimited"}}"#;

fn create(extra: &str) -> String {
    format!(r#"{{"type":"create_tournament","id":9,{BASE}{extra}}}}}"#)
}

fn decode_both(s: &str) -> Vec<Result<ClientFrame, DecodeError>> {
    let v: serde_json::Value = serde_json::from_str(s).unwrap();
    vec![
        decode_client(s.as_bytes(), Encoding::Json),
        decode_client(&rmp_serde::to_vec_named(&v).unwrap(), Encoding::MsgPack),
    ]
}

fn spec_of(f: &ClientFrame) -> &TournamentSpec {
    match &f.msg {
        ClientMsg::CreateTournament { tournament } => tournament,
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_order_round_trips_in_both_encodings_as_given() {
    let s = create(r#","tie_breaks":["first_seat_games","median_buchholz","direct_encounter"]"#);
    for got in decode_both(&s) {
        let f = got.unwrap();
        assert_eq!(
            spec_of(&f).tie_breaks,
            Some(vec![
                TieBreakName::FirstSeatGames,
                TieBreakName::MedianBuchholz,
                TieBreakName::DirectEncounter
            ])
        );
        // Encoded again (as a client sends it), it reads back the same.
        let text = serde_json::to_string(&f).unwrap();
        assert!(
            text.contains(
                r#""tie_breaks":["first_seat_games","median_buchholz","direct_encounter"]"#
            ),
            "{text}"
        );
        let again = decode_client(text.as_bytes(), Encoding::Json).unwrap();
        assert_eq!(again, f);
        let mp = rmp_serde::to_vec_named(&f).unwrap();
        assert_eq!(decode_client(&mp, Encoding::MsgPack).unwrap(), f);
    }
}

#[test]
fn without_an_order_the_field_is_absent_both_ways() {
    for got in decode_both(&create("")) {
        let f = got.unwrap();
        assert_eq!(spec_of(&f).tie_breaks, None);
        let text = serde_json::to_string(&f).unwrap();
        assert!(!text.contains("tie_breaks"), "{text}");
    }
}

#[test]
fn every_name_parses_back_from_its_wire_name() {
    for t in TieBreakName::ALL {
        assert_eq!(t.as_str().parse::<TieBreakName>(), Ok(t));
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(json, format!("\"{}\"", t.as_str()));
    }
    assert_eq!("Median-Buchholz".parse(), Ok(TieBreakName::MedianBuchholz));
    let e = "coin_toss".parse::<TieBreakName>().unwrap_err();
    assert!(
        e.contains("coin_toss") && e.contains("sonneborn_berger"),
        "{e}"
    );
}

#[test]
fn unknown_repeated_or_too_many_are_bad_request() {
    let seven = r#","tie_breaks":["wins","buchholz","median_buchholz","sonneborn_berger","direct_encounter","first_seat_games","wins"]"#;
    for extra in [
        r#","tie_breaks":["buchholz","coin_toss"]"#,
        r#","tie_breaks":["wins","buchholz","wins"]"#,
        r#","tie_breaks":"wins""#,
        seven,
    ] {
        for got in decode_both(&create(extra)) {
            let e = got.unwrap_err();
            assert_eq!(
                (e.code(), e.id()),
                (ErrorCode::BadRequest, Some(9)),
                "{extra}: {e}"
            );
        }
    }
    let e = decode_client(create(seven).as_bytes(), Encoding::Json).unwrap_err();
    assert!(e.to_string().contains("at most 6"), "{e}");
    let e = decode_client(
        create(r#","tie_breaks":["wins","buchholz","wins"]"#).as_bytes(),
        Encoding::Json,
    )
    .unwrap_err();
    assert!(e.to_string().contains("wins listed twice"), "{e}");
}
