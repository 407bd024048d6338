//! `odds … --svg FILE`: the answer drawn as an SVG chart with plotters.
//!
//! A distribution is bars with their exact percentages, and where the
//! outcomes are the values of a count or a total, an "at least" curve; a
//! comparison is paired bars; a sweep of one word is lines over the swept
//! values (each outcome's chance above, each expected value below), of two
//! words a heat map.
//!
//! Text is laid out with plotters' own estimate of its width, not with a
//! font file: an SVG's text is drawn by whatever shows it, so a font in the
//! binary would only refine the spacing, at the cost of most of a
//! megabyte, and would still not be the font the viewer uses.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::answer::{Answer, Comparison, Kind, Odds, Sweep, expected_of, p_of};

/// An `odds` answer drawn as a chart (`--svg FILE`: the front end writes
/// the file).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Svg;

impl super::Format for Svg {
    fn accepts(&self, kind: Kind, line: &str) -> Result<(), String> {
        match kind {
            Kind::Odds => Ok(()),
            _ => Err(format!(
                "--svg draws the answer of an `odds` line (a distribution, `compare`, or a sweep); `{}` is not one: put `odds` before it",
                line.trim()
            )),
        }
    }

    fn write(
        &self,
        answer: &Answer,
        _source: super::Source,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let drawn = svg(answer).ok_or_else(|| super::not_written("--svg", answer))?;
        out.write_all(drawn.map_err(std::io::Error::other)?.as_bytes())
    }
}

/// The colour of a distribution's bars (the first side of a comparison).
pub(crate) const BAR: RGBColor = RGBColor(66, 110, 170);
/// The second side of a comparison.
pub(crate) const WITH_BAR: RGBColor = RGBColor(214, 122, 44);
/// The "at least" curve.
pub(crate) const AT_LEAST: RGBColor = RGBColor(160, 40, 60);

const FONT: &str = "sans-serif";

/// The chart of an answer, as SVG text; `None` for an answer that is not
/// odds (the caller refuses those before running the line).
pub(crate) fn svg(output: &Answer) -> Option<Result<String, String>> {
    Some(match output {
        Answer::Odds(odds) => distribution(odds),
        Answer::Comparison(c) => comparison(c),
        Answer::Sweep(s) if s.swept.len() == 1 => sweep_lines(s),
        Answer::Sweep(s) => heat_map(s),
        _ => return None,
    })
}

fn failed(e: impl std::fmt::Display) -> String {
    format!("the chart could not be drawn: {e}")
}

/// The colour of the k-th line of a chart.
fn line_colour(k: usize) -> RGBAColor {
    Palette99::pick(k).to_rgba()
}

fn percent(p: f64) -> String {
    format!("{:.2}%", p * 100.0)
}

/// Wide enough for each label of `labels` under its own slot.
fn width_for(labels: &[&str], slot_min: u32, extra: u32) -> u32 {
    let longest = labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(1)
        .min(40) as u32;
    let slot = (longest * 7 + 16).max(slot_min);
    (slot * labels.len() as u32 + extra).clamp(520, 4000)
}

/// A label under each slot of the x axis (0, 1, 2… in the chart's own
/// coordinates), drawn on the whole picture below the plotting area.
fn x_labels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    at: impl Fn(f64) -> (i32, i32),
    labels: &[&str],
) -> Result<(), String> {
    let style = TextStyle::from((FONT, 13).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
    for (i, label) in labels.iter().enumerate() {
        let (x, y) = at(i as f64);
        root.draw(&Text::new(label.to_string(), (x, y + 6), style.clone()))
            .map_err(failed)?;
    }
    Ok(())
}

/// The title of an odds answer.
fn title(odds: &Odds) -> String {
    format!("{} · {}", odds.heading, odds.rules.title())
}

fn distribution(odds: &Odds) -> Result<String, String> {
    let labels: Vec<&str> = odds.outcomes.iter().map(|o| o.text.as_str()).collect();
    let count = odds.count();
    let at_least = count.as_ref().map(|c| odds.at_least(c));
    let top = odds.outcomes.iter().map(|o| o.prob.p).fold(0.0, f64::max);
    // The curve runs to 100%; bars alone get the room they need.
    let y_max = if at_least.is_some() {
        1.08
    } else {
        (top * 1.15).clamp(0.05, 1.08)
    };
    let n = labels.len();
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width_for(&labels, 64, 140), 480))
            .into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let x_desc = count
            .as_ref()
            .map_or_else(|| "outcome".to_string(), |c| c.measure.replace('_', " "));
        let mut chart = probability_axes(&root, title(odds), n, y_max, &x_desc)?;
        chart
            .draw_series(odds.outcomes.iter().enumerate().map(|(i, o)| {
                let x = i as f64;
                Rectangle::new(
                    [(x - 0.38, 0.0), (x + 0.38, o.prob.p * 100.0)],
                    BAR.filled(),
                )
            }))
            .map_err(failed)?;
        let above =
            TextStyle::from((FONT, 12).into_font()).pos(Pos::new(HPos::Center, VPos::Bottom));
        chart
            .draw_series(odds.outcomes.iter().enumerate().map(|(i, o)| {
                Text::new(
                    percent(o.prob.p),
                    (i as f64, o.prob.p * 100.0),
                    above.clone(),
                )
            }))
            .map_err(failed)?;
        if let Some(at_least) = &at_least {
            let points: Vec<(f64, f64)> = at_least
                .iter()
                .enumerate()
                .map(|(i, p)| (i as f64, p.p * 100.0))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), AT_LEAST.stroke_width(2)))
                .map_err(failed)?
                .label("at least this many")
                .legend(|(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], AT_LEAST.stroke_width(2))
                });
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 3, AT_LEAST.filled())))
                .map_err(failed)?;
            series_key(&mut chart)?;
        }
        x_labels(&root, |x| chart.backend_coord(&(x, 0.0)), &labels)?;
        root.present().map_err(failed)?;
    }
    Ok(out)
}

/// The axes of a chart of outcomes: one slot an outcome along x (labelled
/// by `x_labels`), probability in percent up to `y_max` up y.
fn probability_axes<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    caption: String,
    n: usize,
    y_max: f64,
    x_desc: &str,
) -> Result<ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>, String> {
    let mut chart = ChartBuilder::on(root)
        .caption(caption, (FONT, 18))
        .margin(14)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..y_max * 100.0)
        .map_err(failed)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .x_desc(x_desc)
        .y_desc("probability (%)")
        .y_label_formatter(&|y| format!("{y:.0}%"))
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .draw()
        .map_err(failed)?;
    Ok(chart)
}

/// The key of the series that were given labels, top right.
fn series_key<'a, DB: DrawingBackend + 'a>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.4))
        .label_font((FONT, 13))
        .draw()
        .map_err(failed)
}

fn comparison(c: &Comparison) -> Result<String, String> {
    let mut texts: Vec<&str> = c.without.outcomes.iter().map(|o| o.text.as_str()).collect();
    for o in &c.with.outcomes {
        if !texts.contains(&o.text.as_str()) {
            texts.push(&o.text);
        }
    }
    let n = texts.len();
    let top = texts
        .iter()
        .map(|t| p_of(&c.without, t).max(p_of(&c.with, t)))
        .fold(0.0, f64::max);
    let y_max = (top * 1.2).clamp(0.05, 1.1);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width_for(&texts, 110, 140), 480))
            .into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let caption = format!("{} · compare {}", c.without.heading, c.words);
        let mut chart = probability_axes(&root, caption, n, y_max, "outcome")?;
        let above =
            TextStyle::from((FONT, 11).into_font()).pos(Pos::new(HPos::Center, VPos::Bottom));
        for (side, odds, colour, from, to) in [
            ("without", &c.without, BAR, -0.4, 0.0),
            ("with", &c.with, WITH_BAR, 0.0, 0.4),
        ] {
            chart
                .draw_series(texts.iter().enumerate().map(|(i, t)| {
                    let x = i as f64;
                    Rectangle::new(
                        [
                            (x + from + 0.02, 0.0),
                            (x + to - 0.02, p_of(odds, t) * 100.0),
                        ],
                        colour.filled(),
                    )
                }))
                .map_err(failed)?
                .label(if side == "with" {
                    format!("with {}", c.words)
                } else {
                    "without".to_string()
                })
                .legend(move |(x, y)| Circle::new((x + 6, y), 5, colour.filled()));
            chart
                .draw_series(texts.iter().enumerate().map(|(i, t)| {
                    let p = p_of(odds, t);
                    Text::new(
                        percent(p),
                        (i as f64 + (from + to) / 2.0, p * 100.0),
                        above.clone(),
                    )
                }))
                .map_err(failed)?;
        }
        series_key(&mut chart)?;
        x_labels(&root, |x| chart.backend_coord(&(x, 0.0)), &texts)?;
        root.present().map_err(failed)?;
    }
    Ok(out)
}

fn sweep_title(s: &Sweep) -> String {
    let words: Vec<&str> = s.swept.iter().map(|w| w.text.as_str()).collect();
    match s.rows.first() {
        Some(r) => format!(
            "{} · sweeping {} · {}",
            r.odds.verb,
            words.join(" × "),
            r.odds.rules.title()
        ),
        None => words.join(" × "),
    }
}

/// One swept word: x is its value; above, a line per outcome (its chance);
/// below, a line per expected value.
fn sweep_lines(s: &Sweep) -> Result<String, String> {
    let word = &s.swept[0];
    let values: Vec<&str> = word.choices.iter().map(|c| c.shown.as_str()).collect();
    let outcomes = s.outcomes();
    let expected = s.expected();
    let m = s.rows.len();
    let height = if expected.is_empty() { 520 } else { 860 };
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width_for(&values, 60, 360), height))
            .into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        // Labels and keys are placed in whole-picture pixels, on `whole`.
        let whole = root.clone();
        let root = root.titled(&sweep_title(s), (FONT, 18)).map_err(failed)?;
        let (upper, lower) = if expected.is_empty() {
            (root.clone(), None)
        } else {
            let (a, b) = root.split_vertically(height / 2 + 20);
            (a, Some(b))
        };
        let mut chart = ChartBuilder::on(&upper)
            .margin(14)
            .margin_right(220)
            .x_label_area_size(52)
            .y_label_area_size(64)
            .build_cartesian_2d(-0.3f64..(m as f64 - 0.7), 0f64..100.0)
            .map_err(failed)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .x_desc(word.name.as_str())
            .y_desc("probability (%)")
            .y_label_formatter(&|y| format!("{y:.0}%"))
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 14))
            .draw()
            .map_err(failed)?;
        for (k, (_, text)) in outcomes.iter().enumerate() {
            let colour = line_colour(k);
            let points: Vec<(f64, f64)> = s
                .rows
                .iter()
                .enumerate()
                .map(|(i, r)| (i as f64, p_of(&r.odds, text) * 100.0))
                .collect();
            dotted_line(&mut chart, points, colour)?;
        }
        let entries: Vec<(String, RGBAColor)> = outcomes
            .iter()
            .enumerate()
            .map(|(k, (_, t))| (t.to_string(), line_colour(k)))
            .collect();
        key(
            &whole,
            chart.backend_coord(&(m as f64 - 0.7, 100.0)),
            &entries,
        )?;
        x_labels(&whole, |x| chart.backend_coord(&(x, 0.0)), &values)?;
        if let Some(lower) = lower {
            expected_panel(s, &lower, &whole, &values, outcomes.len())?;
        }
        root.present().map_err(failed)?;
    }
    Ok(out)
}

/// The lower panel of a sweep's lines: each expected value over the swept
/// values, its colours after the outcomes' (`after` of them).
fn expected_panel(
    s: &Sweep,
    lower: &DrawingArea<SVGBackend, Shift>,
    whole: &DrawingArea<SVGBackend, Shift>,
    values: &[&str],
    after: usize,
) -> Result<(), String> {
    let word = &s.swept[0];
    let expected = s.expected();
    let m = s.rows.len();
    let top = s
        .rows
        .iter()
        .flat_map(|r| r.odds.expected.iter().map(|(_, v)| *v))
        .fold(0.0, f64::max);
    let bottom = s
        .rows
        .iter()
        .flat_map(|r| r.odds.expected.iter().map(|(_, v)| *v))
        .fold(0.0, f64::min);
    let span = (top - bottom).max(1.0);
    let mut chart = ChartBuilder::on(lower)
        .margin(14)
        .margin_right(220)
        .x_label_area_size(52)
        .y_label_area_size(64)
        .build_cartesian_2d(-0.3f64..(m as f64 - 0.7), bottom..top + span * 0.1)
        .map_err(failed)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .x_desc(word.name.as_str())
        .y_desc("expected value")
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .draw()
        .map_err(failed)?;
    for (k, name) in expected.iter().enumerate() {
        let colour = line_colour(k + after);
        let points: Vec<(f64, f64)> = s
            .rows
            .iter()
            .enumerate()
            .filter_map(|(i, r)| expected_of(&r.odds, name).map(|v| (i as f64, v)))
            .collect();
        dotted_line(&mut chart, points, colour)?;
    }
    let entries: Vec<(String, RGBAColor)> = expected
        .iter()
        .enumerate()
        .map(|(k, n)| (n.replace('_', " "), line_colour(k + after)))
        .collect();
    key(
        whole,
        chart.backend_coord(&(m as f64 - 0.7, top + span * 0.1)),
        &entries,
    )?;
    x_labels(whole, |x| chart.backend_coord(&(x, bottom)), values)?;
    Ok(())
}

/// A key in the margin right of a plot: a short line in each series'
/// colour and its name, from the plot's top right corner down.
/// A line through the points with a dot on each: one swept value a dot.
fn dotted_line<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    points: Vec<(f64, f64)>,
    colour: RGBAColor,
) -> Result<(), String> {
    chart
        .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
        .map_err(failed)?;
    chart
        .draw_series(
            points
                .into_iter()
                .map(|p| Circle::new(p, 3, colour.filled())),
        )
        .map_err(failed)?;
    Ok(())
}

fn key<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    entries: &[(String, RGBAColor)],
) -> Result<(), String> {
    let style = TextStyle::from((FONT, 13).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, (name, colour)) in entries.iter().enumerate() {
        let y = y + 8 + 18 * i as i32;
        root.draw(&PathElement::new(
            vec![(x + 12, y), (x + 32, y)],
            colour.stroke_width(3),
        ))
        .map_err(failed)?;
        root.draw(&Text::new(name.clone(), (x + 38, y), style.clone()))
            .map_err(failed)?;
    }
    Ok(())
}

/// What a heat map's cell is shaded by, read off its distribution.
type Shade<'a> = Box<dyn Fn(&Odds) -> Option<f64> + 'a>;

/// Two swept words: a cell for each combination, shaded by the first
/// expected value (or, with none, by the chance of the first outcome),
/// its number written in it.
fn heat_map(s: &Sweep) -> Result<String, String> {
    let (first, second) = (&s.swept[0], &s.swept[1]);
    let xs: Vec<&str> = first.choices.iter().map(|c| c.shown.as_str()).collect();
    let ys: Vec<&str> = second.choices.iter().map(|c| c.shown.as_str()).collect();
    let expected = s.expected();
    let outcomes = s.outcomes();
    let (what, value): (String, Shade) = match expected.first() {
        Some(name) => (
            name.replace('_', " "),
            Box::new(move |o: &Odds| expected_of(o, name)),
        ),
        None => {
            let text = outcomes.first().map_or("", |(_, t)| t).to_string();
            (
                format!("chance of {text} (%)"),
                Box::new(move |o: &Odds| Some(p_of(o, &text) * 100.0)),
            )
        }
    };
    let cells: Vec<(usize, usize, Option<f64>)> = s
        .rows
        .iter()
        .map(|r| (r.picks[0], r.picks[1], value(&r.odds)))
        .collect();
    let top = cells.iter().filter_map(|c| c.2).fold(f64::MIN, f64::max);
    let bottom = cells.iter().filter_map(|c| c.2).fold(f64::MAX, f64::min);
    let span = if top > bottom { top - bottom } else { 1.0 };
    let caption = format!("{} · {what}", sweep_title(s));
    let width = width_for(&xs, 70, 200).max(caption.chars().count() as u32 * 9 + 60);
    let height = (ys.len() as u32 * 40 + 200).clamp(360, 3000);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, (FONT, 18))
            .margin(14)
            .x_label_area_size(52)
            .y_label_area_size(80)
            .build_cartesian_2d(
                -0.5f64..(xs.len() as f64 - 0.5),
                -0.5f64..(ys.len() as f64 - 0.5),
            )
            .map_err(failed)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(0)
            .y_labels(0)
            .x_desc(first.name.as_str())
            .y_desc(second.name.as_str())
            .axis_desc_style((FONT, 14))
            .draw()
            .map_err(failed)?;
        chart
            .draw_series(cells.iter().map(|&(x, y, v)| {
                let shade = v.map_or(0.0, |v| (v - bottom) / span);
                let colour = RGBColor(
                    (245.0 - 190.0 * shade) as u8,
                    (245.0 - 140.0 * shade) as u8,
                    (250.0 - 80.0 * shade) as u8,
                );
                let (x, y) = (x as f64, y as f64);
                Rectangle::new([(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)], colour.filled())
            }))
            .map_err(failed)?;
        let centred =
            TextStyle::from((FONT, 12).into_font()).pos(Pos::new(HPos::Center, VPos::Center));
        chart
            .draw_series(cells.iter().map(|&(x, y, v)| {
                let text = v.map_or_else(|| "—".to_string(), |v| format!("{v:.2}"));
                Text::new(text, (x as f64, y as f64), centred.clone())
            }))
            .map_err(failed)?;
        x_labels(&root, |x| chart.backend_coord(&(x, -0.5)), &xs)?;
        let left = TextStyle::from((FONT, 13).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
        for (j, label) in ys.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(-0.5, j as f64));
            root.draw(&Text::new(label.to_string(), (px - 8, py), left.clone()))
                .map_err(failed)?;
        }
        root.present().map_err(failed)?;
    }
    Ok(out)
}
