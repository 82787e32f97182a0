//! Frames to messages and back: the envelope, both encodings, and typed
//! decode failures.
//!
//! One schema, two encodings of the same map: JSON in WebSocket text frames,
//! MessagePack with named fields (`rmp_serde::to_vec_named`) in binary
//! frames, so a field added later is skipped by an old reader in either.
//! Decoding never panics and never trusts the input: the size is checked
//! before a byte is parsed, nesting is bounded ([`MAX_DEPTH`], JSON
//! [`MAX_JSON_DEPTH`]), a frame must
//! hold exactly one message, and a failure is classified into the error code
//! the peer should get (`too_large`, `bad_frame`, `unknown_type`,
//! `bad_request`), echoing the frame's `id` whenever it can be read.

use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};

use crate::client::ClientMsg;
use crate::error::{ErrorBody, ErrorCode};
use crate::ids::RequestId;
use crate::limits::{MAX_DEPTH, MAX_FRAME_BYTES, MAX_JSON_DEPTH, MAX_SERVER_FRAME_BYTES};
use crate::server::ServerMsg;

/// A message with its optional request id: `{"type": ..., ...fields, "id": n}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Envelope<M> {
    #[serde(flatten)]
    pub msg: M,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
}

/// A frame from a client.
pub type ClientFrame = Envelope<ClientMsg>;
/// A frame from the server.
pub type ServerFrame = Envelope<ServerMsg>;

impl<M> Envelope<M> {
    /// A message without id (a push, or a request needing no matching).
    pub fn push(msg: M) -> Envelope<M> {
        Envelope { msg, id: None }
    }

    /// A message with the given id (a request, or the reply to one).
    pub fn with_id(id: Option<RequestId>, msg: M) -> Envelope<M> {
        Envelope { msg, id }
    }
}

impl ServerFrame {
    /// An `error` reply.
    pub fn error(id: Option<RequestId>, body: ErrorBody) -> ServerFrame {
        Envelope::with_id(id, ServerMsg::Error(body))
    }
}

/// A connection's encoding, fixed by the frame type of its `hello`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// JSON in text frames.
    Json,
    /// MessagePack (maps with named fields) in binary frames.
    MsgPack,
}

impl Encoding {
    /// The encoding of a WebSocket data frame.
    pub fn of_frame(is_text: bool) -> Encoding {
        if is_text {
            Encoding::Json
        } else {
            Encoding::MsgPack
        }
    }

    /// Whether this encoding travels in text frames.
    pub fn is_text(self) -> bool {
        self == Encoding::Json
    }
}

/// Why a frame could not be decoded into a message. Each maps to the error
/// code the peer gets ([`DecodeError::code`]) and keeps the frame's `id`
/// when one could be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("frame of {size} bytes exceeds the limit of {max}")]
    TooLarge { size: usize, max: usize },
    #[error("undecodable frame: {reason}")]
    BadFrame {
        id: Option<RequestId>,
        reason: String,
    },
    #[error("unknown message type '{kind}'")]
    UnknownType { id: Option<RequestId>, kind: String },
    #[error("bad '{kind}' message: {reason}")]
    BadRequest {
        id: Option<RequestId>,
        kind: &'static str,
        reason: String,
    },
}

impl DecodeError {
    /// The frame's request id, if it could be read.
    pub fn id(&self) -> Option<RequestId> {
        match self {
            DecodeError::TooLarge { .. } => None,
            DecodeError::BadFrame { id, .. }
            | DecodeError::UnknownType { id, .. }
            | DecodeError::BadRequest { id, .. } => *id,
        }
    }

    /// The error code to answer with.
    pub fn code(&self) -> ErrorCode {
        match self {
            DecodeError::TooLarge { .. } => ErrorCode::TooLarge,
            DecodeError::BadFrame { .. } => ErrorCode::BadFrame,
            DecodeError::UnknownType { .. } => ErrorCode::UnknownType,
            DecodeError::BadRequest { .. } => ErrorCode::BadRequest,
        }
    }

    /// The `error` reply for this failure, with the frame's id.
    pub fn reply(&self) -> ServerFrame {
        ServerFrame::error(self.id(), ErrorBody::new(self.code(), self.to_string()))
    }
}

/// A message type: its known `type` names and its checks beyond serde.
pub trait Message: Serialize + DeserializeOwned {
    /// Every `type` of this version.
    const TYPES: &'static [&'static str];
    /// Checks serde cannot express.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

impl Message for ClientMsg {
    const TYPES: &'static [&'static str] = ClientMsg::TYPES;
    fn check(&self) -> Result<(), String> {
        self.validate()
    }
}

impl Message for ServerMsg {
    const TYPES: &'static [&'static str] = ServerMsg::TYPES;
}

/// Encodes a server frame for a connection.
pub fn encode_server(frame: &ServerFrame, encoding: Encoding) -> Vec<u8> {
    encode(frame, encoding)
}

/// Decodes a client frame of at most [`MAX_FRAME_BYTES`]. A server
/// configured with another `max_frame_bytes` calls
/// `decode::<ClientMsg>(bytes, encoding, max)`.
pub fn decode_client(bytes: &[u8], encoding: Encoding) -> Result<ClientFrame, DecodeError> {
    decode(bytes, encoding, MAX_FRAME_BYTES)
}

/// Encodes a client frame.
pub fn encode_client(frame: &ClientFrame, encoding: Encoding) -> Vec<u8> {
    encode(frame, encoding)
}

/// Decodes a server frame (at most [`MAX_SERVER_FRAME_BYTES`]). A type this
/// version does not know is [`DecodeError::UnknownType`]: clients skip it.
pub fn decode_server(bytes: &[u8], encoding: Encoding) -> Result<ServerFrame, DecodeError> {
    decode(bytes, encoding, MAX_SERVER_FRAME_BYTES)
}

/// Encodes any frame. Serializing these types cannot fail (string keys
/// only, infallible `Serialize` impls, writes to memory); should it ever,
/// the result is a fixed `internal` error frame rather than a panic.
pub fn encode<M: Message>(frame: &Envelope<M>, encoding: Encoding) -> Vec<u8> {
    let out = match encoding {
        Encoding::Json => serde_json::to_vec(frame).map_err(|e| e.to_string()),
        Encoding::MsgPack => rmp_serde::to_vec_named(frame).map_err(|e| e.to_string()),
    };
    out.unwrap_or_else(|_| {
        let fallback = ServerFrame::error(
            None,
            ErrorBody::new(ErrorCode::Internal, "message could not be encoded"),
        );
        match encoding {
            Encoding::Json => serde_json::to_vec(&fallback).unwrap_or_default(),
            Encoding::MsgPack => rmp_serde::to_vec_named(&fallback).unwrap_or_default(),
        }
    })
}

/// Decodes any frame of at most `max` bytes.
pub fn decode<M: Message>(
    bytes: &[u8],
    encoding: Encoding,
    max: usize,
) -> Result<Envelope<M>, DecodeError> {
    if bytes.len() > max {
        return Err(DecodeError::TooLarge {
            size: bytes.len(),
            max,
        });
    }
    let err = match parse::<Envelope<M>>(bytes, encoding) {
        Ok(frame) => {
            return match frame.msg.check() {
                Ok(()) => Ok(frame),
                Err(reason) => Err(DecodeError::BadRequest {
                    id: frame.id,
                    kind: type_of::<M>(bytes, encoding),
                    reason: short(reason),
                }),
            };
        }
        Err(e) => e,
    };
    Err(classify::<M>(bytes, encoding, short(err)))
}

/// The longest decoder message echoed back: serde's messages may quote the
/// input (an unknown variant name), which must not make replies large.
const MAX_REASON_CHARS: usize = 200;

fn short(mut reason: String) -> String {
    if let Some((cut, _)) = reason.char_indices().nth(MAX_REASON_CHARS) {
        reason.truncate(cut);
        reason.push_str("...");
    }
    reason
}

/// What a failed frame still tells: the `id` if it is a request id, the
/// `type` if it is a string. Any other value is skipped; anything but a map
/// is not a message at all.
#[derive(Default)]
struct Probe {
    id: Loose,
    kind: Loose,
}

impl<'de> Deserialize<'de> for Probe {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Probe, D::Error> {
        struct MapOnly;
        impl<'de> serde::de::Visitor<'de> for MapOnly {
            type Value = Probe;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Probe, A::Error> {
                let mut probe = Probe::default();
                while let Some(key) = map.next_key::<Loose>()? {
                    let value = map.next_value::<Loose>()?;
                    match key {
                        Loose::Text(k) if k == "id" => probe.id = value,
                        Loose::Text(k) if k == "type" => probe.kind = value,
                        _ => {}
                    }
                }
                Ok(probe)
            }
        }
        d.deserialize_map(MapOnly)
    }
}

#[derive(Default, Deserialize)]
#[serde(untagged)]
enum Loose {
    Id(RequestId),
    Text(String),
    Other(IgnoredAny),
    #[default]
    Missing,
}

/// Names the failure of a frame that did not decode.
fn classify<M: Message>(bytes: &[u8], encoding: Encoding, reason: String) -> DecodeError {
    let Ok(probe) = parse::<Probe>(bytes, encoding) else {
        return DecodeError::BadFrame { id: None, reason };
    };
    let id = match probe.id {
        Loose::Id(id) => Some(id),
        _ => None,
    };
    match probe.kind {
        Loose::Text(kind) => match M::TYPES.iter().find(|t| **t == kind) {
            Some(known) => DecodeError::BadRequest {
                id,
                kind: known,
                reason,
            },
            None => DecodeError::UnknownType {
                id,
                kind: kind.chars().take(64).collect(),
            },
        },
        _ => DecodeError::BadFrame {
            id,
            reason: "a message must be a map with a string field 'type'".to_string(),
        },
    }
}

/// The known `type` of a frame that decoded (for error messages).
fn type_of<M: Message>(bytes: &[u8], encoding: Encoding) -> &'static str {
    match parse::<Probe>(bytes, encoding) {
        Ok(Probe {
            kind: Loose::Text(k),
            ..
        }) => M::TYPES.iter().find(|t| **t == k).copied().unwrap_or("?"),
        _ => "?",
    }
}

/// The deepest nesting of arrays and objects in a JSON text (brackets
/// inside strings do not count). Not a validation: what is malformed is
/// left to the parser.
fn json_depth(bytes: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &b in bytes {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Parses exactly one value from the frame, with nesting bounded.
fn parse<T: DeserializeOwned>(bytes: &[u8], encoding: Encoding) -> Result<T, String> {
    match encoding {
        Encoding::Json => {
            // serde_json's own bound refuses the 128th level; the frame's
            // depth is measured first instead, and the parser's bound
            // lifted, so that exactly MAX_JSON_DEPTH levels are read.
            if json_depth(bytes) > MAX_JSON_DEPTH {
                return Err(format!("nested deeper than {MAX_JSON_DEPTH}"));
            }
            let mut de = serde_json::Deserializer::from_slice(bytes);
            de.disable_recursion_limit();
            let value = T::deserialize(&mut de).map_err(|e| e.to_string())?;
            de.end().map_err(|e| e.to_string())?;
            Ok(value)
        }
        Encoding::MsgPack => {
            let mut rest = bytes;
            let mut de = rmp_serde::Deserializer::new(&mut rest);
            // rmp-serde refuses the level at which its count reaches the
            // bound: one more, so that MAX_DEPTH levels are read.
            de.set_max_depth(MAX_DEPTH + 1);
            let value = T::deserialize(&mut de).map_err(|e| e.to_string())?;
            drop(de);
            if rest.is_empty() {
                Ok(value)
            } else {
                Err(format!("{} bytes after the message", rest.len()))
            }
        }
    }
}
