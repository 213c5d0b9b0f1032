//! The harness as a UCI client: external engines as grid members and as the reference of
//! `suite make`. [`client`] owns the process and the protocol's handshakes, [`info`] reads what
//! an engine says while it searches, [`go`] turns one search's lines into iterations and a result,
//! [`bounds`] says how long an engine may take.

pub mod bounds;
pub mod client;
pub mod go;
pub mod info;
