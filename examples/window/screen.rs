//! The demo's [`View`]: window input becomes game events, and each frame is
//! drawn with softbuffer (scene, panel, chart) at the end of its tick.

use std::sync::Arc;
use std::time::Instant;

use glam::Vec2;
use softbuffer::{Context, Surface};
use tickarena::frame_loop::Frame;
use tickarena::winit::{DrawContext, Input, View};
use winit::dpi::LogicalSize;
use winit::event::{ElementState, KeyEvent, MouseButton, WindowEvent};
use winit::keyboard::PhysicalKey;
use winit::window::{Window, WindowAttributes};

use crate::canvas::Canvas;
use crate::controls::{Command, HeldKeys, command_for};
use crate::counting_alloc::allocations;
use crate::demo::{Event, World};
use crate::layout::Layout;
use crate::overlay::{self, Readout};
use crate::scene::{self, BACKGROUND};
use crate::scripted::{autoplay, is_storm, storm};

/// Entities in a click's spawn and in a burst.
const CLICK_SPAWN: u32 = 24;
const BURST: u32 = 500;
/// Entities the world starts with.
const OPENING: u32 = 300;

type WindowSurface = Surface<Arc<Window>, Arc<Window>>;

pub struct Screen {
    size: LogicalSize<f64>,
    autoplay: bool,
    surface: Option<WindowSurface>,
    /// The layout of the last frame drawn: where a click lands in the world.
    layout: Option<Layout>,
    held: HeldKeys,
    events_this_tick: usize,
    heap: HeapMeter,
    last_draw: Option<Instant>,
    fps: f64,
    /// What the user (or the autopilot) did, for the summary.
    used: InputCounts,
}

/// Inputs handled, by kind.
#[derive(Clone, Copy, Debug, Default)]
pub struct InputCounts {
    pub spawn_clicks: u64,
    pub despawn_clicks: u64,
    pub bursts: u64,
    pub storms: u64,
    pub steering_changes: u64,
}

/// Heap allocations of the process: those of the frame (input to actions,
/// update, drawing) apart from those of the windowing stack (winit's event
/// handling, and X11 requests when presenting: x11rb serializes each
/// request into a new `Vec`).
#[derive(Default)]
struct HeapMeter {
    /// The count when the frame started (`poll`).
    frame_start: u64,
    /// The count after the last frame was presented.
    presented: Option<u64>,
    /// Allocations between the last present and this frame's start.
    windowing: u64,
    /// The entity list's capacity at the last draw: when it changes, the
    /// world allocated (a new segment), which is not a steady frame.
    entity_capacity: usize,
    /// Steady frames and their allocations.
    steady_ticks: u64,
    steady_tick_allocations: u64,
}

/// What the run measured, for the summary printed at exit.
pub struct RunSummary {
    pub steady_ticks: u64,
    pub steady_tick_allocations: u64,
    pub input: InputCounts,
}

impl HeapMeter {
    /// The frame is drawn: adds it to the steady figures if it is one:
    /// after the first frames (which size the queues and lists that are
    /// then reused), not a storm (whose events may outgrow the event
    /// queue), and not growing the world's entity list.
    fn end_frame(&mut self, tick: u64, events: usize, entity_capacity: usize) {
        let allocated = allocations() - self.frame_start;
        let grew = std::mem::replace(&mut self.entity_capacity, entity_capacity) != entity_capacity;
        if tick >= 10 && !is_storm(events) && !grew {
            self.steady_ticks += 1;
            self.steady_tick_allocations += allocated;
        }
    }
}

impl Screen {
    pub fn new(size: LogicalSize<f64>, autoplay: bool) -> Screen {
        Screen {
            size,
            autoplay,
            surface: None,
            layout: None,
            held: HeldKeys::default(),
            events_this_tick: 0,
            heap: HeapMeter::default(),
            last_draw: None,
            fps: 0.0,
            used: InputCounts::default(),
        }
    }

    pub fn summary(&self) -> RunSummary {
        RunSummary {
            steady_ticks: self.heap.steady_ticks,
            steady_tick_allocations: self.heap.steady_tick_allocations,
            input: self.used,
        }
    }

    /// Where the cursor points in the world, if it is over the window.
    fn cursor_in_world(&self, input: &Input<'_, Event>) -> Option<Vec2> {
        let cursor = input.state().cursor()?;
        let layout = self.layout?;
        Some(layout.to_world(cursor.x, cursor.y))
    }

    fn key(&mut self, event: &KeyEvent, input: &mut Input<'_, Event>) {
        let PhysicalKey::Code(code) = event.physical_key else {
            return;
        };
        let Some(command) = command_for(code) else {
            return;
        };
        let pressed = event.state == ElementState::Pressed;
        match command {
            Command::Move(heading) => {
                if self.held.set(heading, pressed) {
                    self.used.steering_changes += 1;
                    input.push(Event::Steer(self.held.steering()));
                }
            }
            _ if !pressed || event.repeat => {}
            Command::Burst => {
                self.used.bursts += 1;
                input.push(Event::Burst { count: BURST });
            }
            Command::Storm => {
                self.used.storms += 1;
                input.extend(storm(input.tick()));
            }
            Command::Quit => input.exit(),
        }
    }
}

impl View<World> for Screen {
    fn window_attributes(&self) -> WindowAttributes {
        Window::default_attributes()
            .with_title("tickarena: frame arena demo")
            .with_inner_size(self.size)
    }

    fn resumed(&mut self, window: &Arc<Window>) {
        let surface =
            Context::new(window.clone()).and_then(|context| Surface::new(&context, window.clone()));
        match surface {
            Ok(surface) => self.surface = Some(surface),
            Err(error) => eprintln!("window: no drawing surface ({error}); running undrawn"),
        }
    }

    fn suspended(&mut self) {
        self.surface = None;
    }

    fn input(&mut self, event: &WindowEvent, input: &mut Input<'_, Event>) {
        match event {
            WindowEvent::KeyboardInput { event, .. } => self.key(event, input),
            WindowEvent::MouseInput {
                state: ElementState::Pressed,
                button,
                ..
            } => {
                let Some(at) = self.cursor_in_world(input) else {
                    return;
                };
                match button {
                    MouseButton::Left => {
                        self.used.spawn_clicks += 1;
                        input.push(Event::Spawn {
                            at,
                            count: CLICK_SPAWN,
                        });
                    }
                    MouseButton::Right => {
                        self.used.despawn_clicks += 1;
                        input.push(Event::Click(at));
                    }
                    _ => {}
                }
            }
            // Keys released in another window are never reported: stop.
            WindowEvent::Focused(false) if self.held.release_all() => {
                input.push(Event::Steer(Vec2::ZERO));
            }
            _ => {}
        }
    }

    fn poll(&mut self, input: &mut Input<'_, Event>) {
        let now = allocations();
        self.heap.windowing = self.heap.presented.map_or(0, |presented| now - presented);
        self.heap.frame_start = now;
        if input.tick() == 0 {
            input.push(Event::Spawn {
                at: Vec2::ZERO,
                count: OPENING,
            });
        }
        if self.autoplay {
            input.extend(autoplay(input.tick()));
        }
        self.events_this_tick = input.queued();
    }

    fn draw(&mut self, world: &World, frame: &Frame<'_, World>, _: &(), context: &DrawContext<'_>) {
        let now = Instant::now();
        if let Some(last) = self.last_draw.replace(now) {
            let instant_fps = 1.0 / now.duration_since(last).as_secs_f64().max(1e-6);
            self.fps = if self.fps == 0.0 {
                instant_fps
            } else {
                self.fps * 0.9 + instant_fps * 0.1
            };
        }

        let Some(surface) = &mut self.surface else {
            return;
        };
        let (width, height) = (context.width(), context.height());
        let layout = Layout::new(width.get(), height.get(), context.state().scale_factor());
        self.layout = Some(layout);
        if let Err(error) = surface.resize(width, height) {
            eprintln!("window: cannot resize the surface: {error}");
            return;
        }
        let mut buffer = match surface.buffer_mut() {
            Ok(buffer) => buffer,
            Err(error) => {
                eprintln!("window: no buffer to draw into: {error}");
                return;
            }
        };
        let arena = frame.arena();
        let mut canvas = Canvas::new(&mut buffer, width.get(), height.get());
        canvas.clear(BACKGROUND);
        scene::draw(&mut canvas, &layout, world, arena);
        let stats = arena.stats();
        let readout = Readout {
            tick: frame.tick(),
            entities: world.entities.len(),
            events: self.events_this_tick,
            actions: frame.pending_actions(),
            arena_used: arena.peak(),
            high_water: stats.high_water,
            committed: stats.committed,
            heap_frame: allocations() - self.heap.frame_start,
            heap_windowing: self.heap.windowing,
            tick_ms: context
                .history()
                .latest()
                .map_or(0.0, |record| record.tick_time.as_secs_f64() * 1e3),
            fps: self.fps,
        };
        overlay::draw_panel(&mut canvas, &layout, &readout, arena);
        overlay::draw_help(&mut canvas, &layout);
        overlay::draw_chart(&mut canvas, &layout, context.history(), arena);
        self.heap.end_frame(
            frame.tick(),
            self.events_this_tick,
            world.entities.capacity(),
        );
        if let Err(error) = buffer.present() {
            eprintln!("window: cannot present the frame: {error}");
        }
        self.heap.presented = Some(allocations());
    }
}
