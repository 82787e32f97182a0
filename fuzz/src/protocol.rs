//! The wire decoder (protocol/src/codec.rs), both encodings: decoding any
//! bytes returns a frame or a typed error and never panics; a decoded frame
//! re-encodes, in either encoding, to bytes that decode to the same frame;
//! a refusal's reply frame encodes and decodes.

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
