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

use super::text::percent;
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

/// Okabe and Ito's colours, told apart by colour-blind readers and in
/// print, in an order that keeps neighbours apart; their yellow, faint on
/// white paper, is left out.
const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
];

/// The colour of a distribution's bars (the first side of a comparison).
pub(crate) const BAR: RGBColor = PALETTE[0];
/// The second side of a comparison.
pub(crate) const WITH_BAR: RGBColor = PALETTE[4];
/// The "at least" curve.
pub(crate) const AT_LEAST: RGBColor = PALETTE[1];
/// The grid: one line a labelled value, dark enough to print, no finer
/// lines between (a dense faint grid prints as a barcode).
const GRID: RGBColor = RGBColor(200, 200, 200);

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

/// How the k-th line of a chart is drawn: a colour, a marker shape and,
/// past the colours, dashes, so that any two lines differ in print.
#[derive(Debug, Clone, Copy)]
struct Look {
    colour: RGBColor,
    marker: Marker,
    dashed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Marker {
    Circle,
    Square,
    Triangle,
    Cross,
}

fn look(k: usize) -> Look {
    const MARKERS: [Marker; 4] = [
        Marker::Circle,
        Marker::Square,
        Marker::Triangle,
        Marker::Cross,
    ];
    Look {
        colour: PALETTE[k % PALETTE.len()],
        marker: MARKERS[k % MARKERS.len()],
        dashed: (k / PALETTE.len()) % 2 == 1,
    }
}

/// One marker at a point of a chart (or of the whole picture).
fn marker<C: Clone + 'static, DB: DrawingBackend>(
    area: &DrawingArea<DB, impl plotters::coord::CoordTranslate<From = C>>,
    at: C,
    look: Look,
) -> Result<(), String> {
    let style = look.colour.filled();
    let drawn = match look.marker {
        Marker::Circle => area.draw(&(EmptyElement::at(at) + Circle::new((0, 0), 4, style))),
        Marker::Square => {
            area.draw(&(EmptyElement::at(at) + Rectangle::new([(-3, -3), (3, 3)], style)))
        }
        Marker::Triangle => area.draw(&TriangleMarker::new(at, 5, style)),
        Marker::Cross => area.draw(&Cross::new(at, 4, look.colour.stroke_width(2))),
    };
    drawn.map_err(failed)
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
    // Room above the tallest bar for its percentage.
    let y_max = (top * 1.18).clamp(0.05, 1.12);
    let n = labels.len();
    let height = if at_least.is_some() { 760 } else { 480 };
    let mut out = String::new();
    {
        // A slot wide enough for its at-least value too ("≥ 100.00%").
        let slot = if at_least.is_some() { 84 } else { 64 };
        let whole = SVGBackend::with_string(&mut out, (width_for(&labels, slot, 140), height))
            .into_drawing_area();
        whole.fill(&WHITE).map_err(failed)?;
        let x_desc = count
            .as_ref()
            .map_or_else(|| "outcome".to_string(), |c| c.measure.replace('_', " "));
        let (upper, lower) = match at_least {
            Some(_) => {
                let (a, b) = whole.split_vertically(480);
                (a, Some(b))
            }
            None => (whole.clone(), None),
        };
        let mut chart = probability_axes(&upper, Some(title(odds)), n, y_max, &x_desc)?;
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
        x_labels(&whole, |x| chart.backend_coord(&(x, 0.0)), &labels)?;
        if let (Some(at_least), Some(lower)) = (&at_least, lower) {
            at_least_panel(&whole, &lower, at_least, &labels)?;
        }
        whole.present().map_err(failed)?;
    }
    Ok(out)
}

/// The chance of at least each count, in a panel of its own under the
/// bars: a line with a marker on each count, its values in a row of their
/// own under the panel, never over a bar's label.
fn at_least_panel(
    whole: &DrawingArea<SVGBackend, Shift>,
    lower: &DrawingArea<SVGBackend, Shift>,
    at_least: &[crate::answer::Prob],
    labels: &[&str],
) -> Result<(), String> {
    let n = labels.len();
    let mut chart = probability_axes(lower, None, n, 1.0, "at least this many")?;
    let points: Vec<(f64, f64)> = at_least
        .iter()
        .enumerate()
        .map(|(i, p)| (i as f64, p.p * 100.0))
        .collect();
    let curve = Look {
        colour: AT_LEAST,
        marker: Marker::Circle,
        dashed: false,
    };
    marked_line(&mut chart, points, curve)?;
    let values: Vec<String> = at_least
        .iter()
        .map(|p| format!("≥ {}", percent(p.p)))
        .collect();
    let values: Vec<&str> = values.iter().map(String::as_str).collect();
    x_labels(whole, |x| chart.backend_coord(&(x, 0.0)), &values)
}

/// The axes of a chart of outcomes: one slot an outcome along x (labelled
/// by `x_labels`), probability in percent up to `y_max` up y.
fn probability_axes<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    caption: Option<String>,
    n: usize,
    y_max: f64,
    x_desc: &str,
) -> Result<ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>, String> {
    let mut builder = ChartBuilder::on(root);
    if let Some(caption) = caption {
        builder.caption(caption, (FONT, 18));
    }
    let mut chart = builder
        .margin(14)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..y_max * 100.0)
        .map_err(failed)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .max_light_lines(0)
        .bold_line_style(GRID)
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
        let titled = root.titled(&caption, (FONT, 18)).map_err(failed)?;
        // The key takes a row of its own between the title and the plot.
        let (strip, rest) = titled.split_vertically(30);
        let mut chart = probability_axes(&rest, None, n, y_max, "outcome")?;
        let above =
            TextStyle::from((FONT, 11).into_font()).pos(Pos::new(HPos::Center, VPos::Bottom));
        for (odds, colour, from, to) in
            [(&c.without, BAR, -0.4, 0.0), (&c.with, WITH_BAR, 0.0, 0.4)]
        {
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
                .map_err(failed)?;
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
        let (left, _) = chart.backend_coord(&(-0.5, 0.0));
        key_row(
            &strip,
            (left, 14),
            &[
                ("without".to_string(), BAR),
                (format!("with {}", c.words), WITH_BAR),
            ],
        )?;
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
            .max_light_lines(0)
            .bold_line_style(GRID)
            .x_labels(0)
            .x_desc(word.name.as_str())
            .y_desc("probability (%)")
            .y_label_formatter(&|y| format!("{y:.0}%"))
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 14))
            .draw()
            .map_err(failed)?;
        for (k, (_, text)) in outcomes.iter().enumerate() {
            let look = look(k);
            let points: Vec<(f64, f64)> = s
                .rows
                .iter()
                .enumerate()
                .map(|(i, r)| (i as f64, p_of(&r.odds, text) * 100.0))
                .collect();
            marked_line(&mut chart, points, look)?;
        }
        let entries: Vec<(String, Look)> = outcomes
            .iter()
            .enumerate()
            .map(|(k, (_, t))| (t.to_string(), look(k)))
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
        .max_light_lines(0)
        .bold_line_style(GRID)
        .x_labels(0)
        .x_desc(word.name.as_str())
        .y_desc("expected value")
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .draw()
        .map_err(failed)?;
    for (k, name) in expected.iter().enumerate() {
        let look = look(k + after);
        let points: Vec<(f64, f64)> = s
            .rows
            .iter()
            .enumerate()
            .filter_map(|(i, r)| expected_of(&r.odds, name).map(|v| (i as f64, v)))
            .collect();
        marked_line(&mut chart, points, look)?;
    }
    let entries: Vec<(String, Look)> = expected
        .iter()
        .enumerate()
        .map(|(k, n)| (n.replace('_', " "), look(k + after)))
        .collect();
    key(
        whole,
        chart.backend_coord(&(m as f64 - 0.7, top + span * 0.1)),
        &entries,
    )?;
    x_labels(whole, |x| chart.backend_coord(&(x, bottom)), values)?;
    Ok(())
}

/// A line through the points with a marker on each: one swept value a
/// marker.
fn marked_line(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    points: Vec<(f64, f64)>,
    look: Look,
) -> Result<(), String> {
    let style = look.colour.stroke_width(2);
    if look.dashed {
        chart
            .draw_series(DashedLineSeries::new(points.clone(), 8, 5, style))
            .map_err(failed)?;
    } else {
        chart
            .draw_series(LineSeries::new(points.clone(), style))
            .map_err(failed)?;
    }
    let area = chart.plotting_area();
    for p in points {
        marker(area, p, look)?;
    }
    Ok(())
}

/// A key in the margin right of a plot: a short line in each series'
/// look and its name, from the plot's top right corner down.
fn key<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    entries: &[(String, Look)],
) -> Result<(), String> {
    let style = TextStyle::from((FONT, 13).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, (name, look)) in entries.iter().enumerate() {
        let y = y + 8 + 18 * i as i32;
        let line = vec![(x + 12, y), (x + 36, y)];
        let drawn = if look.dashed {
            root.draw(&plotters::element::DashedPathElement::new(
                line,
                5,
                3,
                look.colour.stroke_width(3),
            ))
        } else {
            root.draw(&PathElement::new(line, look.colour.stroke_width(3)))
        };
        drawn.map_err(failed)?;
        marker(root, (x + 24, y), *look)?;
        root.draw(&Text::new(name.clone(), (x + 42, y), style.clone()))
            .map_err(failed)?;
    }
    Ok(())
}

/// A key in one row above a plot, outside it (so that it never covers a
/// bar or its percentage): a swatch and a name for each series, from
/// `(x, y)` rightwards.
fn key_row<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    entries: &[(String, RGBColor)],
) -> Result<(), String> {
    let style = TextStyle::from((FONT, 13).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    let mut x = x;
    for (name, colour) in entries {
        root.draw(&Rectangle::new(
            [(x, y - 6), (x + 12, y + 6)],
            colour.filled(),
        ))
        .map_err(failed)?;
        root.draw(&Text::new(name.clone(), (x + 18, y), style.clone()))
            .map_err(failed)?;
        // plotters' own estimate of the name's width, and a gap.
        let (w, _) = root.estimate_text_size(name, &style).map_err(failed)?;
        x += 18 + w as i32 + 24;
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
