//! Parsing one client line into a [`Request`]: not JSON, not an object, a missing or
//! mistyped field is `bad_request`; a `type` this version does not know is `unknown_type`.
//! The `id` is read first, so that a request that cannot be parsed still gets it echoed.

use serde_json::Value;

use super::protocol::{ErrorCode, Request};

/// A request that could not be parsed: the `id` if one was readable, and why.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rejected {
    pub id: Option<Value>,
    pub code: ErrorCode,
    pub message: String,
}

/// A parsed request with the `id` to echo.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Parsed {
    pub id: Option<Value>,
    pub request: Request,
}

pub(crate) fn parse(line: &[u8]) -> Result<Parsed, Rejected> {
    let reject = |id: Option<Value>, code, message: String| Rejected { id, code, message };
    let value: Value = serde_json::from_slice(line)
        .map_err(|e| reject(None, ErrorCode::BadRequest, format!("not JSON: {e}")))?;
    let Value::Object(object) = value else {
        return Err(reject(
            None,
            ErrorCode::BadRequest,
            "a message must be a JSON object".into(),
        ));
    };
    let id = match object.get("id") {
        None => None,
        Some(id @ (Value::Number(_) | Value::String(_))) => Some(id.clone()),
        Some(_) => {
            return Err(reject(
                None,
                ErrorCode::BadRequest,
                "`id` must be a number or a string".into(),
            ))
        }
    };
    // After the syntax and the `id`: what is not JSON is reported as such, and the reply
    // echoes the `id` (the last one, if it is the `id` that is repeated).
    if let Some(dup) = crate::format::find_duplicate_key(line) {
        return Err(reject(id, ErrorCode::BadRequest, dup.to_string()));
    }
    let Some(kind) = object.get("type").and_then(Value::as_str) else {
        return Err(reject(
            id,
            ErrorCode::BadRequest,
            "missing string field `type`".into(),
        ));
    };
    let kind = kind.to_owned();
    // Unknown fields (`id` included) are ignored.
    match serde_json::from_value(Value::Object(object)) {
        Ok(Request::Unknown) => Err(reject(
            id,
            ErrorCode::UnknownType,
            format!("unknown message type `{kind}`"),
        )),
        Ok(request) => Ok(Parsed { id, request }),
        Err(e) => Err(reject(id, ErrorCode::BadRequest, format!("`{kind}`: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_parse_and_keep_their_id() {
        let parsed = parse(br#"{"type":"hello","protocol":1,"client":"x","id":"a"}"#);
        assert_eq!(
            parsed,
            Ok(Parsed {
                id: Some(Value::from("a")),
                request: Request::Hello {
                    protocol: 1,
                    client: "x".into(),
                    token: None
                }
            })
        );
        let set = parse(br#"{"type":"set","instance":2,"key":"k","value":null}"#);
        assert!(matches!(
            set,
            Ok(Parsed {
                request: Request::Set {
                    instance: 2,
                    value: Value::Null,
                    ..
                },
                ..
            })
        ));
        assert_eq!(
            parse(br#"{"type":"list","id":3}"#).map(|p| p.request),
            Ok(Request::List)
        );
    }

    #[test]
    fn bad_requests_say_why() {
        let code = |line: &[u8]| parse(line).map(|_| ()).map_err(|r| r.code);
        assert_eq!(code(b"{nope"), Err(ErrorCode::BadRequest));
        assert_eq!(code(b"[1]"), Err(ErrorCode::BadRequest));
        assert_eq!(code(br#"{"id":1}"#), Err(ErrorCode::BadRequest));
        assert_eq!(code(br#"{"type":"fly"}"#), Err(ErrorCode::UnknownType));
        assert_eq!(code(br#"{"type":"pause"}"#), Err(ErrorCode::BadRequest));
        assert_eq!(
            code(br#"{"type":"set","instance":1,"key":"k"}"#),
            Err(ErrorCode::BadRequest)
        );
        assert_eq!(
            code(br#"{"type":"pause","instance":-1}"#),
            Err(ErrorCode::BadRequest)
        );
        let rejected = parse(br#"{"type":"tree","id":7}"#).unwrap_err();
        assert_eq!(rejected.id, Some(Value::from(7)), "the id is echoed");
    }
}
