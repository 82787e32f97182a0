//! The wire decoder (protocol/src/codec.rs), both encodings: decoding any
//! bytes returns a frame or a typed error and never panics; a decoded frame
//! re-encodes, in either encoding, to bytes that decode to the same frame;
//! a refusal's reply frame encodes and decodes. (A server frame with a
//! non-finite float, which only MessagePack can carry, is checked to
//! decode without panicking, not to round-trip.)

use tengen_protocol::codec::{
    Encoding, decode_client, decode_server, encode_client, encode_server,
};

/// The same bytes as a client frame and as a server frame, as JSON text
/// and as MessagePack.
pub fn check(data: &[u8]) {
    for encoding in [Encoding::Json, Encoding::MsgPack] {
        match decode_client(data, encoding) {
            Ok(frame) => {
                for to in [Encoding::Json, Encoding::MsgPack] {
                    let bytes = encode_client(&frame, to);
                    let again = decode_client(&bytes, to).unwrap_or_else(|e| {
                        panic!("{frame:?} encoded as {to:?} does not decode: {e:?}")
                    });
                    assert_eq!(again, frame, "client frame changed through {to:?}");
                }
            }
            Err(error) => {
                let _ = (error.id(), error.code());
                let reply = error.reply();
                let bytes = encode_server(&reply, encoding);
                let again = decode_server(&bytes, encoding)
                    .unwrap_or_else(|e| panic!("the reply to {error:?} does not decode: {e:?}"));
                assert_eq!(again, reply, "error reply changed through {encoding:?}");
            }
        }
        if let Ok(frame) = decode_server(data, encoding) {
            if carries_non_finite(&format!("{frame:?}")) {
                // MessagePack can carry NaN or infinity in a float field
                // and JSON cannot (it has no such numbers), and NaN is not
                // equal to itself: such a frame decodes (a client shows
                // what it got) but is outside the round trip. A server
                // never sends one.
                continue;
            }
            for to in [Encoding::Json, Encoding::MsgPack] {
                let bytes = encode_server(&frame, to);
                let again = decode_server(&bytes, to).unwrap_or_else(|e| {
                    panic!("{frame:?} encoded as {to:?} does not decode: {e:?}")
                });
                assert_eq!(again, frame, "server frame changed through {to:?}");
            }
        }
    }
}

/// Whether a frame's `Debug` text shows a non-finite float (`NaN`, `inf`,
/// `-inf` as a field's or a list item's value; a string is quoted, so
/// text that merely says so is not taken for one, except inside a quoted
/// string that itself contains `: NaN` and the like, which only skips a
/// check).
fn carries_non_finite(debug: &str) -> bool {
    ["NaN", "inf", "-inf"].iter().any(|v| {
        [": ", "[", ", "].iter().any(|before| {
            debug.match_indices(&format!("{before}{v}")).any(|(at, m)| {
                let next = debug[at + m.len()..].chars().next();
                !next.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '"')
            })
        })
    })
}
