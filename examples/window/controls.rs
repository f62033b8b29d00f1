//! Which key does what, and the steering direction of the keys held down.

use glam::Vec2;
use winit::keyboard::KeyCode;

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Hold to move the player.
    Move(Heading),
    /// Spawn a burst of entities from the player.
    Burst,
    /// Fire an event storm: thousands of events in one frame.
    Storm,
    Quit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heading {
    Up,
    Down,
    Left,
    Right,
}

/// The key map. Physical keys, so WASD sits under the left hand on any
/// layout; arrows work too.
pub fn command_for(key: KeyCode) -> Option<Command> {
    Some(match key {
        KeyCode::KeyW | KeyCode::ArrowUp => Command::Move(Heading::Up),
        KeyCode::KeyS | KeyCode::ArrowDown => Command::Move(Heading::Down),
        KeyCode::KeyA | KeyCode::ArrowLeft => Command::Move(Heading::Left),
        KeyCode::KeyD | KeyCode::ArrowRight => Command::Move(Heading::Right),
        KeyCode::Space => Command::Burst,
        KeyCode::KeyT => Command::Storm,
        KeyCode::Escape => Command::Quit,
        _ => return None,
    })
}

/// The one-line help shown on screen.
pub const HELP: &str =
    "WASD/arrows move  click spawn  right-click despawn  space burst  T storm  Esc quit";

/// The movement keys held down.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeldKeys {
    up: bool,
    down: bool,
    left: bool,
    right: bool,
}

impl HeldKeys {
    /// Records a press or release; returns whether the steering changed.
    pub fn set(&mut self, heading: Heading, pressed: bool) -> bool {
        let before = self.steering();
        *match heading {
            Heading::Up => &mut self.up,
            Heading::Down => &mut self.down,
            Heading::Left => &mut self.left,
            Heading::Right => &mut self.right,
        } = pressed;
        self.steering() != before
    }

    /// Releases everything (the window lost the focus, so releases would
    /// go unreported); returns whether the steering changed.
    pub fn release_all(&mut self) -> bool {
        let before = self.steering();
        *self = HeldKeys::default();
        self.steering() != before
    }

    /// The direction to move in, in world space (y up); opposite keys
    /// cancel out.
    pub fn steering(&self) -> Vec2 {
        let axis = |negative: bool, positive: bool| f32::from(positive) - f32::from(negative);
        Vec2::new(axis(self.left, self.right), axis(self.down, self.up)).normalize_or_zero()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wasd_and_arrows_steer_the_same_way() {
        for (letter, arrow) in [
            (KeyCode::KeyW, KeyCode::ArrowUp),
            (KeyCode::KeyA, KeyCode::ArrowLeft),
            (KeyCode::KeyS, KeyCode::ArrowDown),
            (KeyCode::KeyD, KeyCode::ArrowRight),
        ] {
            assert!(matches!(command_for(letter), Some(Command::Move(_))));
            assert_eq!(command_for(letter), command_for(arrow));
        }
        assert_eq!(command_for(KeyCode::Escape), Some(Command::Quit));
        assert_eq!(command_for(KeyCode::KeyT), Some(Command::Storm));
        assert_eq!(command_for(KeyCode::KeyQ), None);
    }

    #[test]
    fn held_keys_combine_and_cancel() {
        let mut held = HeldKeys::default();
        assert!(held.set(Heading::Up, true));
        assert_eq!(held.steering(), Vec2::Y);
        assert!(held.set(Heading::Right, true));
        assert!((held.steering() - Vec2::new(1.0, 1.0).normalize()).length() < 1e-6);
        assert!(held.set(Heading::Down, true), "up and down cancel");
        assert_eq!(held.steering(), Vec2::X);
        assert!(!held.set(Heading::Down, true), "a repeat changes nothing");
        assert!(held.release_all());
        assert_eq!(held.steering(), Vec2::ZERO);
        assert!(!held.release_all());
    }
}
