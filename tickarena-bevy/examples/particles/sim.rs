//! The main world's particles and their extraction into the render
//! world: the same in every upload version.

use bevy_ecs::prelude::*;
use bevy_render::Extract;

/// A particle: where it is, where it goes, the frames it has left, and
/// a number that picks its size.
#[derive(Clone, Copy, Debug)]
pub struct Particle {
    pub position: [f32; 2],
    pub velocity: [f32; 2],
    pub life: u32,
    pub seed: u32,
}

/// Kinds of particle (sparks, smoke, ...): each its own list, and its own
/// prepare system.
pub const KINDS: usize = 3;

/// Every `BURST_EVERY`th frame, seven times the usual particles more,
/// living one frame: a burst of eight times the instances.
pub const BURST_EVERY: u64 = 30;

/// The main world's particles, simulated each frame.
#[derive(Resource)]
pub struct Particles {
    pub kinds: [Vec<Particle>; KINDS],
    pub frame: u64,
    /// The particles alive on an ordinary frame, about.
    pub base: usize,
    seed: u64,
}

impl Particles {
    pub fn new(base: usize) -> Self {
        Particles {
            kinds: core::array::from_fn(|_| Vec::with_capacity(base * 3)),
            frame: 0,
            base,
            seed: 0x2545_f491_4f6c_dd1d,
        }
    }

    fn random(&mut self) -> f32 {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        (self.seed >> 40) as f32 / (1u64 << 24) as f32
    }

    fn spawn(&mut self, life: u32) {
        let angle = self.random() * core::f32::consts::TAU;
        let speed = 0.002 + 0.01 * self.random();
        let seed = (self.random() * 1024.0) as u32;
        let particle = Particle {
            position: [self.random() * 0.2 - 0.1, self.random() * 0.2 - 0.1],
            velocity: [angle.cos() * speed, angle.sin() * speed],
            life,
            seed,
        };
        self.kinds[seed as usize % KINDS].push(particle);
    }

    /// Particles alive, of every kind.
    pub fn len(&self) -> usize {
        self.kinds.iter().map(Vec::len).sum()
    }
}

pub fn is_burst(frame: u64) -> bool {
    frame.is_multiple_of(BURST_EVERY)
}

/// One frame of the simulation: particles move and age, the dead go, new
/// ones come (the count varies from frame to frame), and a burst.
pub fn simulate(mut particles: ResMut<Particles>) {
    let particles = &mut *particles;
    particles.frame += 1;
    for kind in &mut particles.kinds {
        for p in kind.iter_mut() {
            p.position[0] += p.velocity[0];
            p.position[1] += p.velocity[1];
            p.velocity[1] -= 0.0002;
            p.life -= 1;
        }
        kind.retain(|p| p.life > 0);
    }
    // The count swings by a quarter over 40 frames.
    let wave = (particles.frame as f32 * core::f32::consts::TAU / 40.0).sin();
    let wanted = (particles.base as f32 * (1.0 + 0.25 * wave)) as usize;
    let mut alive = particles.len();
    while alive < wanted {
        alive += 1;
        let life = 20 + (particles.random() * 100.0) as u32;
        particles.spawn(life);
    }
    if is_burst(particles.frame) {
        for _ in 0..7 * particles.base {
            particles.spawn(1);
        }
    }
}

/// The render world's copy of the frame's particles, kind by kind (its
/// buffers kept).
#[derive(Resource, Default)]
pub struct ExtractedParticles(pub [Vec<Particle>; KINDS]);

pub fn extract(particles: Extract<Res<Particles>>, mut extracted: ResMut<ExtractedParticles>) {
    for (to, from) in extracted.0.iter_mut().zip(&particles.kinds) {
        to.clear();
        to.extend_from_slice(from);
    }
}
