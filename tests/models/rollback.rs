//! The rollback snapshot ring under random save/load/advance orders, as
//! ggrs could send them (and more: any saved frame may be loaded, cells
//! kept or dropped at will), against a model: each cell remembers the
//! state it was saved with; loading it must bring exactly that state back,
//! and advancing from there must step it as the model does. Slots are
//! shared by cells and reused once no cell holds them.

use ggrs::{GameStateCell, GgrsRequest, InputStatus};
use tickarena::frame_loop::{Frame, Game};
use tickarena::rollback::{
    Checksum, PlayerInput, RollbackConfig, RollbackGame, RollbackLoop, Snapshot,
};

/// One request. Picks are reduced into range by [`run`].
#[derive(Clone, Debug)]
#[cfg_attr(fuzzing, derive(arbitrary::Arbitrary))]
pub enum Op {
    /// Saves the current frame into a new cell.
    Save,
    /// Loads the cell picked among those kept.
    Load(u8),
    /// Advances a frame on this input.
    Advance(u8),
    /// Drops the cell picked (its slot may be reused).
    Forget(u8),
}

/// A game with a heap part in its state (the trail), so that slots' reuse
/// of their old contents is exercised.
#[derive(Default)]
pub struct Walker {
    x: i64,
    hits: u64,
    trail: Vec<i64>,
}

#[derive(Clone, Default, Hash, PartialEq, Eq, Debug)]
pub struct WalkerState {
    x: i64,
    hits: u64,
    trail: Vec<i64>,
}

impl WalkerState {
    /// The model's step.
    fn step(&self, input: u8) -> WalkerState {
        let x = self.x + i64::from(input) - 100;
        let mut trail = self.trail.clone();
        trail.push(x);
        if trail.len() > usize::from(input % 7) {
            trail.remove(0);
        }
        WalkerState {
            x,
            hits: self.hits + u64::from(input % 2),
            trail,
        }
    }
}

impl Game for Walker {
    type Event = u8;
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, input: u8, frame: &mut Frame<'f, Self>) {
        // Something in the frame arena too, as a game has.
        let _label = tickarena::format_in!(frame.arena(), "step {input}");
        self.x += i64::from(input) - 100;
        self.hits += u64::from(input % 2);
        self.trail.push(self.x);
        if self.trail.len() > usize::from(input % 7) {
            self.trail.remove(0);
        }
    }
}

impl RollbackGame for Walker {
    type Input = u8;
    type State = WalkerState;
    fn events(input: PlayerInput<u8>) -> impl IntoIterator<Item = u8> {
        [input.input]
    }
    fn save(&self, state: &mut WalkerState) {
        state.x = self.x;
        state.hits = self.hits;
        state.trail.clone_from(&self.trail);
    }
    fn load(&mut self, state: &WalkerState) {
        self.x = state.x;
        self.hits = state.hits;
        self.trail.clone_from(&state.trail);
    }
    fn checksum(state: &WalkerState) -> u128 {
        Checksum::of(state)
    }
}

type Config = RollbackConfig<Walker>;
type Cell = GameStateCell<Snapshot<WalkerState>>;

fn state_of(game: &RollbackLoop<Walker>) -> WalkerState {
    let world = game.world();
    WalkerState {
        x: world.x,
        hits: world.hits,
        trail: world.trail.clone(),
    }
}

/// Runs `ops`, checking the loop against the model after each.
pub fn run(ops: &[Op]) {
    let mut game = RollbackLoop::new(Walker::default());
    let mut model = WalkerState::default();
    let mut frame: i32 = 0;
    // The cells kept, each with the frame and the model state it was saved at.
    let mut cells: Vec<(Cell, i32, WalkerState)> = Vec::new();
    for op in ops {
        match *op {
            Op::Save => {
                let cell = Cell::default();
                let request = GgrsRequest::<Config>::SaveGameState {
                    cell: cell.clone(),
                    frame,
                };
                game.handle_requests(vec![request]);
                cells.push((cell, frame, model.clone()));
            }
            Op::Load(pick) if !cells.is_empty() => {
                let (cell, saved_at, state) = &cells[usize::from(pick) % cells.len()];
                let request = GgrsRequest::<Config>::LoadGameState {
                    cell: cell.clone(),
                    frame: *saved_at,
                };
                game.handle_requests(vec![request]);
                (frame, model) = (*saved_at, state.clone());
            }
            Op::Advance(input) => {
                let request = GgrsRequest::<Config>::AdvanceFrame {
                    inputs: vec![(input, InputStatus::Confirmed)],
                };
                game.handle_requests(vec![request]);
                model = model.step(input);
                frame += 1;
            }
            Op::Forget(pick) if !cells.is_empty() => {
                cells.swap_remove(usize::from(pick) % cells.len());
            }
            _ => {}
        }
        assert_eq!(state_of(&game), model, "after {op:?}");
        assert_eq!(game.frame(), frame);
        // Every kept cell still holds what it was saved with.
        for (cell, saved_at, state) in &cells {
            let snapshot = cell.data().expect("a saved cell");
            assert_eq!((snapshot.frame(), snapshot.state()), (*saved_at, state));
        }
    }
}
