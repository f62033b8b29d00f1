//! Input that does not come from the keyboard or mouse: the event storm,
//! and the autopilot that plays the demo by itself (`--autoplay`).

use glam::Vec2;

use crate::demo::Event;

/// Events in one storm.
pub const STORM_EVENTS: u32 = 20_000;

/// Whether a frame with this many input events is a storm frame: drawn
/// apart in the chart, and left out of the steady-frame figures (its events
/// may outgrow the event queue kept from earlier frames).
pub fn is_storm(events: usize) -> bool {
    events > 1000
}

/// A storm: thousands of events in one frame, as a flood of network
/// messages would bring. Most are messages (each logged with a string made
/// in the frame arena); one in 40 spawns an entity on a ring.
pub fn storm(tick: u64) -> impl Iterator<Item = Event> {
    let ring = STORM_EVENTS / 40;
    (0..STORM_EVENTS).map(move |i| {
        if i % 40 == 0 {
            let angle = (i / 40) as f32 / ring as f32 * std::f32::consts::TAU + tick as f32;
            Event::Spawn {
                at: Vec2::from_angle(angle) * 350.0,
                count: 1,
            }
        } else {
            Event::Message(i)
        }
    })
}

/// Plays the demo with no one at the keys: spawns along a moving curve,
/// steers the player in a slow circle, despawns now and then, and fires a
/// burst and a storm every few seconds, so an unattended run (a smoke
/// test, a screenshot) shows every part of it.
pub fn autoplay(tick: u64) -> impl Iterator<Item = Event> {
    let t = tick as f32 / 60.0;
    let curve = Vec2::new((t * 0.9).sin() * 380.0, (t * 1.3).cos() * 320.0);
    let mut events = [None; 5];
    if tick.is_multiple_of(10) {
        events[0] = Some(Event::Spawn {
            at: curve,
            count: 12,
        });
    }
    if tick.is_multiple_of(6) {
        // Heading turning at 1.5 rad/s at the player's 300 units/s: a
        // circle of radius 200 through the start.
        events[1] = Some(Event::Steer(Vec2::from_angle(t * 1.5)));
    }
    if tick % 45 == 44 {
        events[2] = Some(Event::Click(-curve));
    }
    if tick % 240 == 30 {
        events[3] = Some(Event::Burst { count: 400 });
    }
    let storm_now = tick % 240 == 70;
    events
        .into_iter()
        .flatten()
        .chain(storm(tick).filter(move |_| storm_now))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_storm_is_thousands_of_events() {
        let events: Vec<Event> = storm(0).collect();
        assert_eq!(events.len(), STORM_EVENTS as usize);
        let spawns = events
            .iter()
            .filter(|event| matches!(event, Event::Spawn { .. }))
            .count();
        assert_eq!(spawns, (STORM_EVENTS / 40) as usize);
    }

    #[test]
    fn the_autopilot_bursts_and_storms_early() {
        let counts: Vec<usize> = (0..240).map(|tick| autoplay(tick).count()).collect();
        assert!(counts[30] >= 1 && autoplay(30).any(|e| matches!(e, Event::Burst { .. })));
        assert!(counts[70] >= STORM_EVENTS as usize);
        assert_eq!(
            counts.iter().filter(|&&n| is_storm(n)).count(),
            1,
            "one storm per 240 ticks"
        );
    }
}
