//! The frame loop's clock, the one seam between a browser and everywhere
//! else: std has no clock on wasm32-unknown-unknown (`std::time::Instant::now`
//! panics there), so in a browser the loop reads `performance.now()` through
//! `web-time`, the clock winit uses there too. Its `Instant` has std's API.

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub(crate) use std::time::Instant;
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub(crate) use web_time::Instant;
