//! `FrameHistory::chart` (feature `chart`): the SVG a person looks at.
//! Checked as text: well formed, every series and label there, no
//! `opacity` attribute, the budget line flat, a one-frame spike wide.

use tickarena::frame_loop::{ChartScale, FixedTimestep, Frame, FrameHistory, FrameLoop, Game};
use tickarena::{BudgetPolicy, FrameArena, Tag};

const INPUT: Tag = Tag::new("input");
const PATHS: Tag = Tag::new("paths");
const UI: Tag = Tag::new("ui");

static CHUNK: [u8; 16 << 10] = [1; 16 << 10];

/// Ordinary frames of some 100 KiB; at tick 300 one frame of 4 MiB of
/// input; paths over their budget every 100 ticks; at tick 450 a request
/// the 8 MiB arena refuses.
struct Bursty;
impl Game for Bursty {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
        let (arena, tick) = (frame.arena(), frame.tick());
        {
            let _ui = arena.tag(UI);
            arena.alloc_slice_copy(&CHUNK[..8 << 10]);
            arena.alloc_slice_copy(&CHUNK);
            arena.alloc_slice_copy(&CHUNK);
        }
        {
            let _input = arena.tag(INPUT);
            let chunks = if tick == 300 { 256 } else { 2 };
            for _ in 0..chunks {
                arena.alloc_slice_copy(&CHUNK);
            }
        }
        {
            let _paths = arena.tag(PATHS);
            let chunks = if tick % 100 == 50 { 8 } else { 2 };
            for _ in 0..chunks {
                arena.alloc_slice_copy(&CHUNK);
            }
            if tick == 450 {
                let too_large = vec![0u8; 16 << 20];
                assert!(arena.try_alloc_slice_copy(&too_large).is_err());
            }
        }
    }
}

fn history() -> FrameLoop<Bursty> {
    let arena = FrameArena::builder()
        .reserve(8 << 20)
        .budget(INPUT, 64 << 10)
        .budget(PATHS, 64 << 10)
        .frame_budget(2 << 20)
        .budget_policy(BudgetPolicy::Count)
        .build()
        .unwrap();
    let mut game = FrameLoop::with_parts(Bursty, arena, FixedTimestep::default(), 600);
    for _ in 0..600 {
        game.tick([()], game.step());
    }
    game
}

/// The `points` of every `<polyline>` or `<polygon>` drawn in `colour`
/// (a stroke for a polyline, a fill for a polygon).
fn shapes(svg: &str, element: &str, colour: &str) -> Vec<Vec<(f64, f64)>> {
    svg.split('<')
        .filter(|e| e.starts_with(element) && e.contains(&format!("\"{colour}\"")))
        .map(|e| {
            let points = e
                .split("points=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            points
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        })
        .collect()
}

fn well_formed(svg: &str) {
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    // Balanced: each `<` opens an element that closes with `/>`, or opens
    // one (`<name`) or closes one (`</name>`) of a pair.
    let (brackets, pairs, empty) = (
        svg.matches('<').count(),
        svg.matches("</").count(),
        svg.matches("/>").count(),
    );
    assert_eq!(brackets, 2 * pairs + empty);
}

fn has_text(svg: &str, text: &str) -> bool {
    svg.contains(&format!(">{text}<")) || svg.contains(&format!(">\n{text}\n<"))
}

#[test]
#[cfg_attr(miri, ignore = "600 frames of hundreds of KiB")]
fn the_chart_has_every_series_solid_colours_a_flat_budget_and_wide_spikes() {
    let game = history();
    let chart = game.history().chart().size(960, 480).title("bursty");
    assert_eq!(
        chart.scale_used(),
        ChartScale::Log,
        "a 4 MiB burst over 100 KiB frames"
    );
    let svg = chart.to_svg().unwrap();
    well_formed(&svg);
    assert!(!svg.contains("opacity"), "no opacity attribute at all");
    assert!(svg.contains("bursty: arena bytes per frame by tag, each at its peak (log scale)"));
    // A band per tag, and the legend names them all, the budgets, the
    // breaches and the refusals.
    assert_eq!(svg.matches("<polygon").count(), 3);
    for label in [
        "ui",
        "input",
        "paths",
        "input budget 64 KiB",
        "paths over 64 KiB",
        "frame budget 2 MiB",
        "allocations refused",
    ] {
        assert!(has_text(&svg, label), "no {label:?} in the legend");
    }
    // The largest burst is labelled with its size and tick.
    assert!(svg.contains("(tick 300)"), "the burst's label");

    // The input's budget (the lowest band) is one flat line: every dash
    // at one height.
    // (The plot's: the legend's sample, right of x = 750, is the same colour.)
    let dashes: Vec<_> = shapes(&svg, "polyline", "#285092")
        .into_iter()
        .filter(|dash| dash.iter().all(|&(x, _)| x < 750.0))
        .collect();
    assert!(dashes.len() > 10, "{} dashes", dashes.len());
    let y = dashes[0][0].1;
    assert!(dashes.iter().flatten().all(|&(_, dash_y)| dash_y == y));

    // The top band's upper edge: the spike of tick 300 is a flat step
    // 3 pixels wide at least.
    let top_band = shapes(&svg, "polyline", "#F4B400"); // ui: stacked last, unbudgeted
    assert_eq!(top_band.len(), 1);
    let edge = &top_band[0];
    let highest = edge.iter().map(|&(_, y)| y).fold(f64::MAX, f64::min);
    let xs: Vec<f64> = edge
        .iter()
        .filter(|&&(_, y)| y == highest)
        .map(|&(x, _)| x)
        .collect();
    let width =
        xs.iter().copied().fold(f64::MIN, f64::max) - xs.iter().copied().fold(f64::MAX, f64::min);
    assert!(width >= 3.0, "the spike is {width} pixels wide");
}

#[test]
#[cfg_attr(miri, ignore = "600 frames of hundreds of KiB")]
fn a_linear_chart_is_offered_and_an_untagged_history_charts_too() {
    let game = history();
    let svg = game
        .history()
        .chart()
        .scale(ChartScale::Linear)
        .to_svg()
        .unwrap();
    well_formed(&svg);
    assert!(!svg.contains("log scale"));
    assert!(svg.contains("MiB"), "byte labels on the axis");

    let mut plain = FrameHistory::with_capacity(10);
    for tick in 0..10 {
        plain.push(tickarena::frame_loop::FrameRecord {
            tick,
            arena_bytes: 1000 + 10 * tick as usize,
            ..Default::default()
        });
    }
    assert_eq!(plain.chart().scale_used(), ChartScale::Linear);
    let svg = plain.chart().to_svg().unwrap();
    well_formed(&svg);
    assert_eq!(svg.matches("<polygon").count(), 1, "one band: the frame");
    assert!(FrameHistory::with_capacity(4).chart().to_svg().is_err());
}

#[test]
#[cfg_attr(miri, ignore = "writes a file")]
#[cfg_attr(target_family = "wasm", ignore = "writes a file")]
fn write_svg_writes_what_to_svg_gives() {
    let mut history = FrameHistory::with_capacity(4);
    history.push(tickarena::frame_loop::FrameRecord {
        arena_bytes: 5,
        ..Default::default()
    });
    let path = std::env::temp_dir().join(format!("tickarena-chart-{}.svg", std::process::id()));
    history.chart().write_svg(&path).unwrap();
    let written = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(written, history.chart().to_svg().unwrap());
}

#[test]
#[ignore = "writes the chart for a person to look at: TICKARENA_CHART=path"]
fn write_the_chart_to_look_at() {
    let path = std::env::var("TICKARENA_CHART").unwrap();
    history()
        .history()
        .chart()
        .title("bursty")
        .write_svg(path)
        .unwrap();
}
