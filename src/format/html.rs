//! The printed page: maud templates (checked at compile time, every text
//! escaped), inline CSS for A4 and Letter, no script, nothing fetched.

use maud::{DOCTYPE, Markup, PreEscaped, html};

use crate::answer::sheet::{Cell, Sheet, Table};
use crate::answer::{Answer, Boxes, Kind, Line, Roster};

/// A page to print: a quick-reference sheet or a game's cards.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Html {
    pub(crate) paper: Paper,
}

impl super::Format for Html {
    fn accepts(&self, kind: Kind, _line: &str) -> Result<(), String> {
        match kind {
            Kind::Sheet | Kind::Cards => Ok(()),
            _ => Err("HTML is written for a sheet or a game's cards only".into()),
        }
    }

    fn write(
        &self,
        answer: &Answer,
        _source: super::Source,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let page = match answer {
            Answer::Sheet(sheet) => render_sheet(sheet, self.paper),
            Answer::Cards(roster) => render_roster(roster, self.paper),
            _ => return Err(super::not_written("HTML", answer)),
        };
        out.write_all(page.as_bytes())
    }
}

/// The paper a page is laid out for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Paper {
    #[default]
    A4,
    Letter,
}

impl Paper {
    fn css(self) -> &'static str {
        match self {
            Paper::A4 => "@page { size: A4; margin: 9mm 8mm; }",
            // Letter is 18 mm shorter than A4: narrower top and bottom
            // margins keep the Musket Mayhem sheet on one page.
            Paper::Letter => "@page { size: letter; margin: 6mm 8mm; }",
        }
    }
}

/// Both pages' look. The columns are narrow enough for Letter's width and
/// the page breaks fall between tables, so one layout serves both papers.
/// The type and spacing are as tight as keep Musket Mayhem's sheet on one
/// Letter page (the shorter paper), the print test's bound.
const CSS: &str = r#"
*, *::before, *::after { box-sizing: border-box; }
html { font-family: "DejaVu Sans Condensed", "Liberation Sans Narrow", "Arial Narrow", sans-serif; font-size: 7.2pt; line-height: 1.15; color: #000; background: #fff; }
body { margin: 0 auto; max-width: 200mm; padding: 4mm; }
header { border-bottom: 1.5pt solid #000; margin-bottom: 2mm; display: flex; justify-content: space-between; align-items: baseline; gap: 4mm; }
h1 { font-size: 13pt; margin: 0; }
header p { margin: 0; font-size: 6.5pt; text-align: right; }
.legend { font-size: 7pt; margin: 0 0 2mm; }
header p.cite { font-style: italic; font-size: 7pt; max-width: 60%; }
footer { font-size: 6pt; color: #333; margin-top: 1mm; border-top: 0.4pt solid #777; }
main.sheet { column-count: 2; column-gap: 5mm; }
section { break-inside: auto; }
h2 { font-size: 9pt; margin: 1.2mm 0 0.8mm; padding: 0.3mm 1mm; background: #222; color: #fff; break-after: avoid; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
p.note { margin: 0 0 1mm; }
table { width: 100%; border-collapse: collapse; margin: 0 0 1.4mm; break-inside: avoid; }
caption { text-align: left; font-weight: bold; font-size: 7.6pt; padding: 0.3mm 0; caption-side: top; }
caption .rule { font-weight: normal; font-style: italic; }
th, td { font-weight: normal; border: 0.4pt solid #777; padding: 0.2mm 0.8mm; vertical-align: top; text-align: left; }
thead th { font-weight: bold; background: #ddd; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
td.value { text-align: center; white-space: nowrap; }
td.text { text-align: left; }
tbody tr:nth-child(even) { background: #f3f3f3; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
tfoot td { border: none; font-style: italic; padding-top: 0.5mm; }
.house { font-weight: bold; outline: 1pt dashed #000; background: #ffe9a8 !important; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.house::after { content: " \2731"; }
.army { margin-bottom: 3mm; }
.army + .army { break-before: page; }
table.roster { break-inside: auto; font-size: 7.6pt; }
table.roster tbody { break-inside: avoid; }
table.roster tbody tr:nth-child(even) { background: none; }
table.roster td { vertical-align: middle; padding: 0.6mm 0.8mm; }
table.roster td.id { font-family: "DejaVu Sans Mono", monospace; font-size: 6.8pt; white-space: nowrap; }
table.roster td.name { width: 30%; }
table.roster td.boxes, table.roster td.n { white-space: nowrap; }
table.roster td.state { width: 16%; }
tr.command th { font-weight: bold; background: #ddd; border-top: 1pt solid #000; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.track { display: block; line-height: 1; }
.track + .track { margin-top: 0.5mm; }
.track .what { display: inline-block; min-width: 9mm; font-size: 6.2pt; }
.b { display: inline-block; width: 2.7mm; height: 2.7mm; border: 0.6pt solid #000; margin-right: 0.45mm; vertical-align: middle; background: #fff; }
.b.x { background: linear-gradient(to top right, #fff 44%, #000 44%, #000 56%, #fff 56%); -webkit-print-color-adjust: exact; print-color-adjust: exact; }
tr.out td { color: #555; }
tr.out .out { color: #000; font-weight: bold; text-transform: uppercase; }
.army h2 small { font-weight: normal; }
.armynotes { margin: 1mm 0 2mm; padding-left: 4mm; }
@media print { body { padding: 0; max-width: none; } a { color: inherit; text-decoration: none; } }
@media screen { body { box-shadow: 0 0 3mm #aaa; margin-top: 5mm; margin-bottom: 5mm; } }
"#;

fn page(title: &str, paper: Paper, body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="generator" content=(concat!("drumhead ", env!("CARGO_PKG_VERSION")));
                title { (title) }
                style { (PreEscaped(paper.css())) (PreEscaped(CSS)) }
            }
            body { (body) }
        }
    }
    .into_string()
}

fn cell_class(cell: &Cell, base: &'static str) -> String {
    match (base.is_empty(), cell.house) {
        (true, false) => String::new(),
        (true, true) => "house".into(),
        (false, false) => base.into(),
        (false, true) => format!("{base} house"),
    }
}

fn table(t: &Table) -> Markup {
    let width = t.heads.len().max(1);
    html! {
        table {
            caption {
                (t.caption)
                @if let Some(rule) = &t.rule { " " span.rule { "(" (rule) ")" } }
            }
            @if !t.heads.is_empty() {
                thead { tr { @for h in &t.heads { th scope="col" { (h) } } } }
            }
            tbody {
                @for r in &t.rows {
                    tr {
                        @let label = cell_class(&r.label, "");
                        @if r.cells.is_empty() {
                            td class=[(!label.is_empty()).then_some(&label)] colspan=(width) { (r.label.text) }
                        } @else {
                            th scope="row" class=[(!label.is_empty()).then_some(&label)] { (r.label.text) }
                            @for c in &r.cells {
                                td class=(cell_class(c, if c.text.chars().count() > 16 { "text" } else { "value" })) { (c.text) }
                            }
                        }
                    }
                }
            }
            @if !t.notes.is_empty() {
                tfoot {
                    @for n in &t.notes {
                        tr { td colspan=(width) class=[n.house.then_some("house")] { (n.text) } }
                    }
                }
            }
        }
    }
}

/// A sheet as one printable HTML page.
pub(crate) fn render_sheet(sheet: &Sheet, paper: Paper) -> String {
    let house = sheet.house_cells();
    let body = html! {
        header {
            h1 { (sheet.title) " — quick reference" }
            p.cite { (sheet.publication) }
        }
        @if house > 0 {
            p.legend.house {
                (house) " value" @if house != 1 { "s" } " changed by house rules, marked so"
            }
        }
        main.sheet {
            @for s in &sheet.sections {
                section {
                    h2 { (s.heading) }
                    @for n in &s.notes { p.note class=[n.house.then_some("house")] { (n.text) } }
                    @for t in &s.tables { (table(t)) }
                }
            }
        }
        footer {
            "Tables in force: " (sheet.sources.join("; ")) "."
        }
    };
    page(&format!("{} — quick reference", sheet.title), paper, body)
}

/// A row of boxes to pencil in, those lost already crossed.
fn boxes(b: &Boxes) -> Markup {
    html! {
        span.track {
            span.what { (b.what) }
            @for i in 0..b.count {
                span.b.x[i < b.crossed] {}
            }
        }
    }
}

fn line(l: &Line, width: usize) -> Markup {
    html! {
        tr class=[l.out_of_action.is_some().then_some("out")] {
            td.id { (l.id) }
            td.name { (l.name) }
            @for i in 0..width {
                @let cell = l.cells.get(i).map_or("", String::as_str);
                // A short factor never breaks over two lines ("MV 2").
                td class=[(cell.chars().count() <= 12).then_some("n")] { (cell) }
            }
            td.boxes { @for b in &l.boxes { (boxes(b)) } }
            td.state {
                @if let Some(why) = &l.out_of_action { span.out { (why) } @if !l.state.is_empty() { "; " } }
                (l.state.join("; "))
            }
        }
    }
}

/// A roster as one printable HTML page: an army a table, a line a unit,
/// grouped by command, with boxes to pencil in.
pub fn render_roster(roster: &Roster, paper: Paper) -> String {
    let body = html! {
        header {
            h1 { (roster.title) }
            p { @for (i, s) in roster.sources.iter().enumerate() { @if i > 0 { br; } (s) } }
        }
        main {
            @for army in &roster.armies {
                section.army {
                    h2 {
                        (army.name)
                        small { " — " (army.rules) @if let Some(side) = &army.side { ", " (side) } }
                    }
                    table.roster {
                        thead { tr {
                            th scope="col" { "id" } th scope="col" { "name" }
                            @for c in &army.columns { th scope="col" { (c) } }
                            th scope="col" { "losses" } th scope="col" { "state, notes" }
                        } }
                        @for c in &army.commands {
                            tbody {
                                @if !c.heading.is_empty() {
                                    tr.command { th colspan=(army.columns.len() + 4) scope="rowgroup" { (c.heading) } }
                                }
                                @for l in &c.lines { (line(l, army.columns.len())) }
                            }
                        }
                    }
                    @if !army.notes.is_empty() {
                        ul.armynotes { @for n in &army.notes { li { (n) } } }
                    }
                }
            }
        }
    };
    page(&roster.title, paper, body)
}
