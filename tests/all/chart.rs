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

/// Every `<text>`: its x, its anchor and its text.
fn texts(svg: &str) -> Vec<(f64, String, String)> {
    svg.split("<text ")
        .skip(1)
        .map(|element| {
            let attribute = |name: &str| {
                element
                    .split(&format!("{name}=\""))
                    .nth(1)
                    .map(|rest| rest.split('"').next().unwrap().to_string())
                    .unwrap_or_default()
            };
            let text = element
                .split('>')
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap();
            (
                attribute("x").parse().unwrap(),
                attribute("text-anchor"),
                text.trim().to_string(),
            )
        })
        .collect()
}

/// The bytes of the vertical axis' labels (the texts left of the plot),
/// smallest first.
fn axis_labels(svg: &str) -> Vec<usize> {
    let mut labels: Vec<usize> = texts(svg)
        .into_iter()
        .filter(|(x, _, _)| *x < PLOT_LEFT)
        .filter_map(|(_, _, text)| {
            let (number, unit) = text.split_once(' ')?;
            let scale = match unit {
                "B" => 1.0,
                "KiB" => 1024.0,
                "MiB" => 1048576.0,
                _ => return None,
            };
            Some((number.parse::<f64>().ok()? * scale) as usize)
        })
        .collect();
    labels.sort_unstable();
    labels
}

/// The heights of the dashes of a line drawn in `colour` in the plot (the
/// legend's sample, right of x = 750, left out), one per dash.
fn lines_of(svg: &str, colour: &str) -> Vec<f64> {
    svg.split('<')
        .filter(|e| {
            e.starts_with("polyline") && e.contains(&format!("\"{colour}\" stroke-width=\"2\""))
        })
        .map(|e| {
            e.split("points=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
        })
        .filter_map(|points| {
            let (x, y) = points.split_whitespace().next()?.split_once(',')?;
            (x.parse::<f64>().ok()? < 750.0).then(|| y.parse().unwrap())
        })
        .collect()
}

/// The plot's left edge, in pixels: the margin and the axis' label area.
const PLOT_LEFT: f64 = 84.0;

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
    assert!(svg.contains("bursty: arena bytes per frame by tag (log scale)"));
    // A band per tag, and the legend names them all, the frame's peak, the
    // budgets (on a log axis every tag's breaches are dots), the refusals
    // and what the bands are.
    assert_eq!(svg.matches("<polygon").count(), 3);
    for label in [
        "ui",
        "input",
        "paths",
        "frame peak",
        "input over 64 KiB",
        "paths over 64 KiB",
        "frame budget 2 MiB",
        "allocations refused",
        "asked, not granted",
        "Bands: the frame&apos;s peak, shared",
    ] {
        assert!(has_text(&svg, label), "no {label:?} in the legend");
    }
    assert!(
        !has_text(&svg, "input budget 64 KiB"),
        "no budget line on a log axis"
    );
    // The largest bursts are labelled with their size and tick: the one
    // refused with what it asked.
    assert!(svg.contains("(tick 300)"), "the burst's label");
    assert!(
        svg.contains("16.2 MiB asked (tick 450)"),
        "the refused frame's label"
    );

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
        .reservation(8 << 20)
        .to_svg()
        .unwrap();
    well_formed(&svg);
    assert!(!svg.contains("log scale"));
    // The frame refused 16 MiB: a box from its peak up to what it asked,
    // far over the reservation's line.
    assert!(has_text(&svg, "reservation 8 MiB"));
    let reservation = lines_of(&svg, "#C80000");
    assert!(reservation.len() > 10, "the reservation's dashes");
    let asked_top = svg
        .split("<rect ")
        .filter(|rect| rect.contains("fill=\"#F1BFBF\""))
        .map(|rect| {
            let number = |name: &str| -> f64 {
                let value = rect.split(&format!("{name}=\"")).nth(1).unwrap();
                value.split('"').next().unwrap().parse().unwrap()
            };
            (number("x"), number("y"))
        })
        .filter(|&(x, _)| x < 750.0) // the legend's sample is right of the plot
        .map(|(_, y)| y)
        .fold(f64::MAX, f64::min);
    assert!(
        asked_top < reservation[0] - 100.0,
        "{asked_top} vs {}",
        reservation[0]
    );
    assert!(has_text(&svg, "Bands: each tag&apos;s peak, stacked;"));
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
    assert!(has_text(&svg, "input budget 64 KiB"));
    // The axis' labels: 4 to 9 of them, in steps of a power of two bytes
    // (the tallest frame asked 16.1 MiB: steps of 4 MiB), not 97.7 KiB.
    let labels = axis_labels(&svg);
    assert!((4..=9).contains(&labels.len()), "{labels:?}");
    let step = labels[1] - labels[0];
    assert!(step.is_power_of_two() && step >= 1024, "{labels:?}");
    assert!(labels.windows(2).all(|w| w[1] - w[0] == step), "{labels:?}");
    assert_eq!(labels[0], 0);
    // The bursts are labelled on a linear axis too, the refused one with
    // what it asked.
    assert!(
        svg.contains("16.2 MiB asked (tick 450)"),
        "the refused frame's label"
    );
    assert!(svg.contains("4.1 MiB (tick 300)"), "the burst's label");

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
#[ignore = "writes the charts for a person to look at: TICKARENA_CHART=folder"]
fn write_the_charts_to_look_at() {
    let folder = std::path::PathBuf::from(std::env::var("TICKARENA_CHART").unwrap());
    let bursty = history();
    let temporaries = temporaries();
    for (name, history, scale) in [
        ("bursty-log", bursty.history(), ChartScale::Log),
        ("bursty-linear", bursty.history(), ChartScale::Linear),
        ("temporaries-log", temporaries.history(), ChartScale::Log),
        (
            "temporaries-linear",
            temporaries.history(),
            ChartScale::Linear,
        ),
    ] {
        history
            .chart()
            .title(name)
            .scale(scale)
            .reservation(8 << 20)
            .write_svg(folder.join(format!("{name}.svg")))
            .unwrap();
    }
}

const AI: Tag = Tag::new("ai");

/// Each frame: 100 KiB of AI scratch, dropped; then 100 KiB of paths
/// scratch, dropped; then 20 KiB of UI kept. The frame's peak is some
/// 120 KiB, its tags' peaks sum to 220 KiB. At tick 1, 4 MiB of paths
/// kept: a burst at the plot's left edge.
struct Temporaries;
impl Game for Temporaries {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
        let arena = frame.arena();
        {
            let _ai = arena.tag(AI);
            drop(Vec::<u8, _>::with_capacity_in(100 << 10, arena));
        }
        {
            let _paths = arena.tag(PATHS);
            drop(Vec::<u8, _>::with_capacity_in(100 << 10, arena));
            if frame.tick() == 1 {
                arena.alloc_slice_fill_with(4 << 20, |_| 0u8);
            }
        }
        let _ui = arena.tag(UI);
        arena.alloc_slice_fill_with(20 << 10, |_| 0u8);
    }
}

fn temporaries() -> FrameLoop<Temporaries> {
    let arena = FrameArena::builder()
        .frame_budget(150 << 10)
        .budget_policy(BudgetPolicy::Count)
        .build()
        .unwrap();
    let mut game = FrameLoop::with_parts(Temporaries, arena, FixedTimestep::default(), 60);
    for _ in 0..60 {
        game.tick([()], game.step());
    }
    game
}

#[test]
#[cfg_attr(miri, ignore = "60 frames of 4 MiB charts")]
fn the_frames_peak_is_drawn_so_that_a_stack_over_the_budget_is_no_false_breach() {
    let game = temporaries();
    let breaches = game
        .history()
        .iter()
        .filter(|r| r.over_frame_budget)
        .count();
    assert_eq!(breaches, 1, "the burst alone breaks the frame's budget");

    // Linear: each band is its tag's peak, the stack passes the budget in
    // every frame, the frame's peak (its own line) only in the burst's.
    let svg = game
        .history()
        .chart()
        .scale(ChartScale::Linear)
        .to_svg()
        .unwrap();
    well_formed(&svg);
    assert!(has_text(&svg, "frame peak"));
    assert!(has_text(&svg, "so a stack can pass the peak."));
    let budget = lines_of(&svg, "#000000");
    assert!(budget.len() > 10 && budget.iter().all(|&y| y == budget[0]));
    let above = |line: &[(f64, f64)]| line.iter().filter(|&&(_, y)| y < budget[0]).count();
    let peak = shapes(&svg, "polyline", "#282828");
    let peak: Vec<(f64, f64)> = peak.into_iter().find(|line| line.len() > 2).unwrap();
    assert_eq!(above(&peak), 2, "one column over: the burst");
    let stack = &shapes(&svg, "polyline", "#F4B400")[0]; // ui, the top band
    assert_eq!(above(stack), stack.len(), "the tags' peaks stacked");

    // Log: the bands share out the frame's peak: the top band's edge is
    // the peak's line, and each band's height is its tag's share.
    let svg = game
        .history()
        .chart()
        .scale(ChartScale::Log)
        .to_svg()
        .unwrap();
    well_formed(&svg);
    assert!(has_text(&svg, "to their peaks."));
    let peak = shapes(&svg, "polyline", "#282828");
    let peak: Vec<(f64, f64)> = peak.into_iter().find(|line| line.len() > 2).unwrap();
    let top = &shapes(&svg, "polyline", "#F4B400")[0];
    assert_eq!(&peak, top);
    let bottom = shapes(&svg, "polygon", "#7BAAF7")[0].last().unwrap().1; // ai's fill
    let column = 2 * 30; // an ordinary frame's step: its first point
    let ai = shapes(&svg, "polyline", "#4285F4")[0][column].1;
    let paths = shapes(&svg, "polyline", "#DB4437")[0][column].1;
    let ui = top[column].1;
    let heights = [bottom - ai, ai - paths, paths - ui];
    let total: f64 = heights.iter().sum();
    let record = game.history().iter().nth(30).unwrap();
    let peaks = [AI, PATHS, UI].map(|tag| record.tags.peak(tag) as f64);
    let sum: f64 = peaks.iter().sum();
    for (height, peak) in heights.iter().zip(peaks) {
        // Pixels are whole: each edge is within half a pixel.
        assert!(
            (height - total * peak / sum).abs() <= 1.5,
            "{heights:?} for {peaks:?}"
        );
    }
}

#[test]
#[cfg_attr(miri, ignore = "60 frames of 4 MiB charts")]
fn a_bursts_label_at_the_left_edge_stays_clear_of_the_axis() {
    let game = temporaries();
    for scale in [ChartScale::Linear, ChartScale::Log] {
        let svg = game.history().chart().scale(scale).to_svg().unwrap();
        let (x, anchor, text) = texts(&svg)
            .into_iter()
            .find(|(_, _, text)| text.ends_with("(tick 1)"))
            .expect("the burst's label");
        // 12-pixel text (plotters writes 9.7): under 6 pixels a character.
        let left = match anchor.as_str() {
            "start" => x,
            "middle" => x - 3.0 * text.len() as f64,
            _ => x - 6.0 * text.len() as f64,
        };
        assert!(
            left >= PLOT_LEFT,
            "{text:?} from x = {left} ({anchor} at {x})"
        );
    }
}

#[test]
fn a_reservation_far_above_every_frame_is_named_not_drawn() {
    let mut history = FrameHistory::with_capacity(10);
    for tick in 0..10 {
        history.push(tickarena::frame_loop::FrameRecord {
            tick,
            arena_bytes: 100 << 10,
            ..Default::default()
        });
    }
    let svg = history.chart().reservation(16 << 30).to_svg().unwrap();
    assert!(has_text(&svg, "reservation 16 GiB (off the chart)"));
    assert!(lines_of(&svg, "#C80000").is_empty(), "no line");
    // The axis goes to the frames, not to 16 GiB.
    assert!(*axis_labels(&svg).last().unwrap() < 1 << 20);
}
