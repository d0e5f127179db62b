//! Outside engines as Kroon starts and talks to them: a Hub engine as a child
//! process on pipes ([`engine_process`]), a DXP engine over TCP ([`dxp_engine`]),
//! both described by one [`engine_spec::EngineSpec`] (`name=... cmd=... proto=...`)
//! and failing with one [`fault::Fault`]. The match runner and the browser board are
//! its clients; neither reaches into the other.

pub mod dxp_engine;
pub mod engine_process;
pub mod engine_spec;
pub mod fault;
