//! The demo's [`View`], on winit's thread: window input becomes game
//! events, handed to the simulation once per frame (natively to its own
//! thread, in a browser stepped right here); each frame drawn (scene,
//! panel, chart: by wgpu with the `wgpu` feature, natively and in a
//! browser, else by the canvas and softbuffer) is the render list the
//! simulation sealed for it, with one more frame built ahead (2 frames in
//! flight).

use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender};
use std::thread::JoinHandle;
use std::time::Duration;

use glam::Vec2;
use softbuffer::{Context, Surface};
use tickarena::frame_loop::{Frame, FrameLoop, Game};
use tickarena::in_flight::Consumer;
use tickarena::winit::{DrawContext, Input, View};
use tickarena::{FrameArena, FrameVec, format_in};
use web_time::Instant;
use winit::event::{ElementState, KeyEvent, MouseButton, WindowEvent};
use winit::keyboard::PhysicalKey;
use winit::window::{Window, WindowAttributes};

use crate::canvas::Canvas;
use crate::controls::{Command, HeldKeys, command_for};
use crate::counting_alloc::thread_allocations;
use crate::demo::{Event, World};
#[cfg(feature = "wgpu")]
use crate::gpu::GpuRenderer;
use crate::layout::Layout;
use crate::overlay::{self, Bytes};
#[cfg(feature = "wgpu")]
use crate::quads::Quad;
use crate::render_list::{Render, RenderList};
use crate::scene::{self, BACKGROUND};
use crate::scripted::{autoplay, is_storm, storm};
use crate::simulation::{Batch, Simulation};

/// Frames in flight: one drawn here while the next is built.
pub const IN_FLIGHT: usize = 2;

/// The game as winit's thread runs it: nothing but the frame clock; the
/// world lives on the simulation thread.
pub struct Presenter;

impl Game for Presenter {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
}

/// The window thread's ends of the pipeline to the simulation.
pub struct Pipeline {
    /// Where each frame's input goes.
    pub simulation: ToSimulation,
    /// The sealed render lists.
    pub frames: Consumer<Render>,
}

/// How the window thread reaches the simulation.
pub enum ToSimulation {
    /// Natively: the simulation's own thread.
    #[cfg_attr(
        target_family = "wasm",
        expect(dead_code, reason = "a browser has no simulation thread")
    )]
    Thread {
        /// Each frame's input, to the simulation.
        batches: SyncSender<Batch>,
        /// Event vectors the simulation emptied, to fill again.
        empties: Receiver<Vec<Event>>,
        /// The thread, which gives the game back when its batches stop.
        thread: JoinHandle<FrameLoop<World>>,
    },
    /// In a browser (one thread): stepped here, in `poll`, before the
    /// frame before it is drawn, so it is still one frame ahead.
    Inline(Box<Simulation>),
}

impl ToSimulation {
    /// Hands over a frame's input and gives back a vector to gather the
    /// next one in; `None` if the simulation is gone.
    fn send(&mut self, mut batch: Batch) -> Option<Vec<Event>> {
        match self {
            ToSimulation::Thread {
                batches, empties, ..
            } => {
                let empty = empties
                    .try_recv()
                    .unwrap_or_else(|_| Vec::with_capacity(256));
                batches.send(batch).ok().map(|()| empty)
            }
            ToSimulation::Inline(simulation) => {
                simulation.step(&mut batch);
                Some(batch.events)
            }
        }
    }

    /// The world's entity capacity as of this thread's allocation count:
    /// natively the drawn frame's; inline, the frame just stepped's (its
    /// growth is counted in this frame's allocations).
    fn entity_capacity(&self, drawn: usize) -> usize {
        match self {
            ToSimulation::Thread { .. } => drawn,
            ToSimulation::Inline(simulation) => simulation.entity_capacity(),
        }
    }

    /// The heap allocations of a simulation tick that this thread's own
    /// count does not include: all of them natively, none when inline.
    fn allocations_elsewhere(&self, simulation_allocations: u64) -> u64 {
        match self {
            ToSimulation::Thread { .. } => simulation_allocations,
            ToSimulation::Inline(_) => 0,
        }
    }
}

/// Entities in a click's spawn and in a burst.
const CLICK_SPAWN: u32 = 24;
const BURST: u32 = 500;
/// Entities the world starts with.
const OPENING: u32 = 300;

type WindowSurface = Surface<Arc<Window>, Arc<Window>>;

/// What the frames are drawn with.
enum Target {
    /// The canvas, presented by softbuffer: without the `wgpu` feature,
    /// or when wgpu finds no adapter (natively) or no WebGL2 (in a
    /// browser).
    Software(WindowSurface),
    /// wgpu: the scene as instanced quads, the overlay as a texture.
    #[cfg(feature = "wgpu")]
    Gpu(Box<GpuRenderer>),
}

pub struct Screen {
    attributes: WindowAttributes,
    autoplay: bool,
    pipeline: Pipeline,
    /// Input of the frame being gathered.
    batch: Vec<Event>,
    /// Batches sent, and frames received (drawn or skipped).
    sent: u64,
    received: u64,
    last_batch: Option<Instant>,
    target: Option<Target>,
    /// The layout of the last frame drawn: where a click lands in the world.
    layout: Option<Layout>,
    held: HeldKeys,
    events_this_tick: usize,
    heap: HeapMeter,
    last_draw: Option<Instant>,
    fps: f64,
    /// What the user (or the autopilot) did, for the summary.
    used: InputCounts,
    largest_render_list: usize,
    /// Sprites in the last frame drawn.
    sprites_drawn: usize,
    /// Told what the run measured after every frame drawn.
    report: fn(&RunSummary),
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

/// Heap allocations of a frame: the simulation's (actions, update, the
/// render list) and this thread's drawing, apart from those of the
/// windowing stack (winit's event handling; presenting: x11rb serializes
/// each X11 request into a new `Vec`, softbuffer's canvas backend converts
/// each frame into a new RGBA `Vec`).
#[derive(Default)]
struct HeapMeter {
    /// This thread's count when the frame started (`poll`).
    frame_start: u64,
    /// The count after the last frame was presented.
    presented: Option<u64>,
    /// Allocations between the last present and this frame's start, and
    /// the renderer's in the last frame.
    windowing: u64,
    /// The renderer's allocations in the last frame drawn (softbuffer's
    /// present; wgpu's recording, submitting and presenting), which are
    /// the windowing stack's, not the frame's.
    renderer: u64,
    /// The entity list's capacity at the last draw: when it changes, the
    /// world allocated (a new segment), which is not a steady frame.
    entity_capacity: usize,
    /// Steady frames and their allocations.
    steady_ticks: u64,
    steady_tick_allocations: u64,
}

/// What the run measured: printed at exit natively, handed to the page
/// after every frame in a browser.
#[derive(Clone, Copy, Debug)]
pub struct RunSummary {
    /// Frames drawn.
    pub frames_drawn: u64,
    /// Sprites in the last frame drawn.
    pub sprites_drawn: usize,
    /// The most bytes a render list took in its arena.
    pub largest_render_list: usize,
    pub steady_ticks: u64,
    pub steady_tick_allocations: u64,
    pub input: InputCounts,
    /// What the upload arena did, when wgpu draws.
    #[cfg(feature = "wgpu")]
    pub uploads: Option<crate::gpu::UploadFigures>,
}

impl HeapMeter {
    /// The frame is drawn: adds it to the steady figures if it is one:
    /// after the first frames (which size the queues and lists that are
    /// then reused), not `unsteady` (a storm, whose events may outgrow the
    /// event vectors, or a frame whose upload arena polled the device,
    /// where wgpu allocates), and not growing the world's entity list.
    fn end_frame(&mut self, tick: u64, unsteady: bool, entity_capacity: usize, simulation: u64) {
        let allocated = thread_allocations() - self.frame_start + simulation;
        let grew = std::mem::replace(&mut self.entity_capacity, entity_capacity) != entity_capacity;
        if tick >= 10 && !unsteady && !grew {
            self.steady_ticks += 1;
            self.steady_tick_allocations += allocated;
        }
    }
}

impl Screen {
    /// A screen in a window made with `attributes`, fed by `pipeline`.
    /// Sends a first, empty batch at once, so that the simulation is always
    /// one frame ahead of the drawing.
    pub fn new(attributes: WindowAttributes, autoplay: bool, pipeline: Pipeline) -> Screen {
        let mut screen = Screen {
            attributes,
            autoplay,
            pipeline,
            batch: Vec::with_capacity(256),
            sent: 0,
            received: 0,
            last_batch: None,
            target: None,
            layout: None,
            held: HeldKeys::default(),
            events_this_tick: 0,
            heap: HeapMeter::default(),
            last_draw: None,
            fps: 0.0,
            used: InputCounts::default(),
            largest_render_list: 0,
            sprites_drawn: 0,
            report: |_| {},
        };
        screen.send_batch(Duration::ZERO);
        screen
    }

    /// Ends the pipeline and gives the game back: a simulation thread
    /// ends when its batches stop (and a `produce` waiting for a free arena
    /// returns once the render lists' consumer is gone).
    #[cfg_attr(
        target_family = "wasm",
        expect(dead_code, reason = "a page never ends its loop to print a summary")
    )]
    pub fn hang_up(self) -> FrameLoop<World> {
        let Pipeline { simulation, frames } = self.pipeline;
        drop(frames);
        match simulation {
            ToSimulation::Thread {
                batches,
                empties,
                thread,
            } => {
                drop((batches, empties));
                thread.join().expect("the simulation thread finished")
            }
            ToSimulation::Inline(simulation) => simulation.into_game(),
        }
    }

    /// Has `report` told what the run measured after every frame drawn.
    #[cfg_attr(
        not(target_family = "wasm"),
        expect(
            dead_code,
            reason = "the page reads it; natively the summary is printed at exit"
        )
    )]
    pub fn reporting_to(self, report: fn(&RunSummary)) -> Screen {
        Screen { report, ..self }
    }

    /// Sends the gathered input as the next frame's batch; false if the
    /// simulation is gone.
    fn send_batch(&mut self, elapsed: Duration) -> bool {
        let events = std::mem::take(&mut self.batch);
        self.sent += 1;
        match self.pipeline.simulation.send(Batch { events, elapsed }) {
            Some(empty) => {
                self.batch = empty;
                true
            }
            None => false,
        }
    }

    pub fn summary(&self) -> RunSummary {
        RunSummary {
            frames_drawn: self.received,
            sprites_drawn: self.sprites_drawn,
            largest_render_list: self.largest_render_list,
            steady_ticks: self.heap.steady_ticks,
            steady_tick_allocations: self.heap.steady_tick_allocations,
            input: self.used,
            #[cfg(feature = "wgpu")]
            uploads: match &self.target {
                Some(Target::Gpu(gpu)) => Some(gpu.upload_figures()),
                _ => None,
            },
        }
    }

    /// Adds a frame drawn to the figures.
    fn record(&mut self, drawn: Drawn) {
        self.largest_render_list = self.largest_render_list.max(drawn.bytes);
        self.received += 1;
        self.sprites_drawn = drawn.sprites;
        let simulation = self
            .pipeline
            .simulation
            .allocations_elsewhere(drawn.simulation_allocations);
        let entity_capacity = self
            .pipeline
            .simulation
            .entity_capacity(drawn.entity_capacity);
        let unsteady = drawn.storm || drawn.polled;
        self.heap
            .end_frame(drawn.tick, unsteady, entity_capacity, simulation);
    }

    /// Where the cursor points in the world, if it is over the window.
    fn cursor_in_world(&self, input: &Input<'_, ()>) -> Option<Vec2> {
        let cursor = input.state().cursor()?;
        let layout = self.layout?;
        Some(layout.to_world(cursor.x, cursor.y))
    }

    fn key(&mut self, event: &KeyEvent, input: &mut Input<'_, ()>) {
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
                    self.batch.push(Event::Steer(self.held.steering()));
                }
            }
            _ if !pressed || event.repeat => {}
            Command::Burst => {
                self.used.bursts += 1;
                self.batch.push(Event::Burst { count: BURST });
            }
            Command::Storm => {
                self.used.storms += 1;
                self.batch.extend(storm(input.tick()));
            }
            Command::Quit => input.exit(),
        }
    }
}

impl View<Presenter> for Screen {
    fn window_attributes(&self) -> WindowAttributes {
        self.attributes.clone()
    }

    fn resumed(&mut self, window: &Arc<Window>) {
        #[cfg(feature = "wgpu")]
        match GpuRenderer::new(window) {
            Ok(gpu) => {
                announce(&format!("renderer: wgpu ({})", gpu.description()));
                self.target = Some(Target::Gpu(Box::new(gpu)));
                return;
            }
            Err(error) => complain(&format!(
                "window: wgpu cannot draw here ({error}); using softbuffer"
            )),
        }
        let surface =
            Context::new(window.clone()).and_then(|context| Surface::new(&context, window.clone()));
        match surface {
            Ok(surface) => {
                announce("renderer: softbuffer (CPU)");
                self.target = Some(Target::Software(surface));
            }
            Err(error) => complain(&format!(
                "window: no drawing surface ({error}); running undrawn"
            )),
        }
    }

    fn suspended(&mut self) {
        self.target = None;
    }

    fn input(&mut self, event: &WindowEvent, input: &mut Input<'_, ()>) {
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
                        self.batch.push(Event::Spawn {
                            at,
                            count: CLICK_SPAWN,
                        });
                    }
                    MouseButton::Right => {
                        self.used.despawn_clicks += 1;
                        self.batch.push(Event::Click(at));
                    }
                    _ => {}
                }
            }
            // Keys released in another window are never reported: stop.
            WindowEvent::Focused(false) if self.held.release_all() => {
                self.batch.push(Event::Steer(Vec2::ZERO));
            }
            _ => {}
        }
    }

    fn poll(&mut self, input: &mut Input<'_, ()>) {
        let now = thread_allocations();
        self.heap.windowing =
            self.heap.presented.map_or(0, |presented| now - presented) + self.heap.renderer;
        self.heap.frame_start = now;
        if input.tick() == 0 {
            self.batch.push(Event::Spawn {
                at: Vec2::ZERO,
                count: OPENING,
            });
        }
        if self.autoplay {
            self.batch.extend(autoplay(input.tick()));
        }
        self.events_this_tick = self.batch.len();
        // Frames that were not drawn (a minimized window) are let go, so
        // that the simulation never waits for this thread.
        while self.sent - self.received >= IN_FLIGHT as u64 {
            self.pipeline.frames.consume(|_| ());
            self.received += 1;
        }
        let started = Instant::now();
        let elapsed = self
            .last_batch
            .replace(started)
            .map_or(Duration::ZERO, |last| started - last);
        if !self.send_batch(elapsed) {
            complain("window: the simulation thread is gone");
            input.exit();
        }
    }

    fn draw(
        &mut self,
        _: &Presenter,
        frame: &Frame<'_, Presenter>,
        _: &(),
        context: &DrawContext<'_>,
    ) {
        let now = Instant::now();
        if let Some(last) = self.last_draw.replace(now) {
            let instant_fps = 1.0 / now.duration_since(last).as_secs_f64().max(1e-6);
            self.fps = if self.fps == 0.0 {
                instant_fps
            } else {
                self.fps * 0.9 + instant_fps * 0.1
            };
        }

        let Some(target) = &mut self.target else {
            return;
        };
        let (width, height) = (context.width(), context.height());
        let layout = Layout::new(width.get(), height.get(), context.state().scale_factor());
        self.layout = Some(layout);
        let arena = frame.arena();
        let overlay = OverlayFigures {
            in_flight: self.pipeline.frames.in_flight(),
            heap_frame: thread_allocations() - self.heap.frame_start,
            heap_windowing: self.heap.windowing,
            fps: self.fps,
            events_sent: self.events_this_tick,
        };
        let frames = &mut self.pipeline.frames;
        let (drawn, renderer_allocations) = match target {
            Target::Software(surface) => {
                if let Err(error) = surface.resize(width, height) {
                    complain(&format!("window: cannot resize the surface: {error}"));
                    return;
                }
                let mut buffer = match surface.buffer_mut() {
                    Ok(buffer) => buffer,
                    Err(error) => {
                        complain(&format!("window: no buffer to draw into: {error}"));
                        return;
                    }
                };
                let mut canvas = Canvas::new(&mut buffer, width.get(), height.get());
                // The oldest frame the simulation sealed: drawn while it
                // builds the next.
                let drawn = frames.consume(|list| {
                    canvas.clear(BACKGROUND);
                    scene::draw(&mut canvas, &layout, list);
                    overlay.draw(&mut canvas, &layout, list, arena)
                });
                let Some(drawn) = drawn else {
                    return; // the simulation is gone; the loop exits at the next poll
                };
                let before = thread_allocations();
                if let Err(error) = buffer.present() {
                    complain(&format!("window: cannot present the frame: {error}"));
                }
                (drawn, thread_allocations() - before)
            }
            #[cfg(feature = "wgpu")]
            Target::Gpu(gpu) => {
                let drew = gpu.draw(width.get(), height.get(), |quads, canvas| {
                    frames.consume(|list| {
                        scene::shapes(&layout, list, |shape| quads(Quad::from(shape)));
                        overlay.draw(canvas, &layout, list, arena)
                    })
                });
                let Some(drew) = drew else {
                    return;
                };
                let drawn = Drawn {
                    polled: drew.polled,
                    ..drew.built
                };
                (drawn, drew.wgpu_allocations)
            }
        };
        // The renderer's allocations (presenting: x11rb serializes each
        // X11 request into a new `Vec`; wgpu's recording and submitting)
        // are the windowing stack's, not the frame's.
        self.heap.frame_start += renderer_allocations;
        self.heap.renderer = renderer_allocations;
        self.record(drawn);
        self.heap.presented = Some(thread_allocations());
        (self.report)(&self.summary());
    }
}

/// Says which renderer draws: on standard output natively, on the
/// browser's console in a page (where the smoke test reads it).
fn announce(line: &str) {
    #[cfg(not(target_family = "wasm"))]
    println!("{line}");
    #[cfg(target_family = "wasm")]
    web_sys::console::log_1(&line.into());
}

/// Says what went wrong, on standard error natively, as an error on the
/// browser's console in a page (where std's standard error goes nowhere,
/// and the smoke test fails on it).
pub fn complain(line: &str) {
    #[cfg(not(target_family = "wasm"))]
    eprintln!("{line}");
    #[cfg(target_family = "wasm")]
    web_sys::console::error_1(&line.into());
}

/// The window thread's figures in the panel, read before the frame is
/// drawn.
#[derive(Clone, Copy)]
struct OverlayFigures {
    in_flight: usize,
    heap_frame: u64,
    heap_windowing: u64,
    fps: f64,
    events_sent: usize,
}

/// What drawing a frame tells the meters.
#[derive(Clone, Copy)]
struct Drawn {
    bytes: usize,
    tick: u64,
    storm: bool,
    /// Whether the upload arena polled the device (wgpu allocates there).
    polled: bool,
    entity_capacity: usize,
    simulation_allocations: u64,
    sprites: usize,
}

impl OverlayFigures {
    /// The panel (the simulation's rows and this thread's), the key help
    /// and the chart, on `canvas`.
    fn draw(
        self,
        canvas: &mut Canvas<'_>,
        layout: &Layout,
        list: &RenderList<'_>,
        arena: &FrameArena,
    ) -> Drawn {
        let OverlayFigures {
            in_flight,
            heap_frame,
            heap_windowing,
            fps,
            events_sent,
        } = self;
        let window_rows = [
            (
                "in flight",
                format_in!(arena, "{in_flight} of {IN_FLIGHT} frames"),
            ),
            ("render list", format_in!(arena, "{}", Bytes(list.bytes))),
            ("draw allocs", format_in!(arena, "{heap_frame}")),
            ("", format_in!(arena, "{heap_windowing} in windowing")),
            ("fps", format_in!(arena, "{fps:.0}")),
        ];
        let mut rows: FrameVec<'_, (&str, &str)> =
            Vec::with_capacity_in(list.rows.len() + window_rows.len(), arena);
        rows.extend_from_slice(list.rows);
        rows.extend(
            window_rows
                .iter()
                .map(|(label, value)| (*label, value.as_str())),
        );
        overlay::draw_panel(canvas, layout, &rows);
        overlay::draw_help(canvas, layout);
        overlay::draw_chart(canvas, layout, list, arena);
        Drawn {
            bytes: list.bytes,
            tick: list.tick,
            storm: is_storm(list.events) || is_storm(events_sent),
            polled: false,
            entity_capacity: list.entity_capacity,
            simulation_allocations: list.simulation_allocations,
            sprites: list.sprites.len(),
        }
    }
}
