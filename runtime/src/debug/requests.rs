//! Parsing one client line into a request: not JSON, not an object or a missing field is
//! `bad_request`; a `type` this version does not know is `unknown_type`.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

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
    let Some(kind) = object.get("type").and_then(Value::as_str) else {
        return Err(reject(
            id,
            ErrorCode::BadRequest,
            "missing string field `type`".into(),
        ));
    };
    let kind = kind.to_owned();
    let request = match kind.as_str() {
        "hello" => fields(object).map(Request::Hello),
        "list" => Ok(Request::List),
        "tree" => fields(object).map(Request::Tree),
        "subscribe" => fields(object).map(Request::Subscribe),
        "unsubscribe" => fields(object).map(Request::Unsubscribe),
        "pause" => fields(object).map(Request::Pause),
        "resume" => fields(object).map(Request::Resume),
        "step" => fields(object).map(Request::Step),
        "breakpoint" => fields(object).map(Request::Breakpoint),
        "set" => fields(object).map(Request::Set),
        other => {
            return Err(reject(
                id,
                ErrorCode::UnknownType,
                format!("unknown message type `{other}`"),
            ))
        }
    };
    match request {
        Ok(request) => Ok(Parsed { id, request }),
        Err(e) => Err(reject(id, ErrorCode::BadRequest, format!("`{kind}`: {e}"))),
    }
}

/// A request's fields; unknown ones (`type` and `id` included) are ignored.
fn fields<T: DeserializeOwned>(object: Map<String, Value>) -> Result<T, serde_json::Error> {
    serde_json::from_value(Value::Object(object))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debug::protocol::{Hello, Set};

    #[test]
    fn requests_parse_and_keep_their_id() {
        let parsed = parse(br#"{"type":"hello","protocol":1,"client":"x","id":"a"}"#);
        assert_eq!(
            parsed,
            Ok(Parsed {
                id: Some(Value::from("a")),
                request: Request::Hello(Hello {
                    protocol: 1,
                    token: None
                })
            })
        );
        let set = parse(br#"{"type":"set","instance":2,"key":"k","value":null}"#);
        assert!(matches!(
            set,
            Ok(Parsed {
                request: Request::Set(Set {
                    instance: 2,
                    value: Value::Null,
                    ..
                }),
                ..
            })
        ));
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
