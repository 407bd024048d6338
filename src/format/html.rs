//! The printed page: maud templates (checked at compile time, every text
//! escaped), inline CSS for A4 and Letter, no script, nothing fetched.

use maud::{DOCTYPE, Markup, PreEscaped, html};

use crate::answer::sheet::{Cell, Sheet, Table};
use crate::answer::{Answer, Card, Kind, Roster};

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
            Paper::Letter => "@page { size: letter; margin: 9mm 8mm; }",
        }
    }
}

/// Both pages' look. The columns are narrow enough for Letter's width and
/// the page breaks fall between tables, so one layout serves both papers.
const CSS: &str = r#"
*, *::before, *::after { box-sizing: border-box; }
html { font-family: "DejaVu Sans Condensed", "Liberation Sans Narrow", "Arial Narrow", sans-serif; font-size: 7.4pt; line-height: 1.22; color: #000; background: #fff; }
body { margin: 0 auto; max-width: 200mm; padding: 4mm; }
header { border-bottom: 1.5pt solid #000; margin-bottom: 2mm; display: flex; justify-content: space-between; align-items: baseline; gap: 4mm; }
h1 { font-size: 13pt; margin: 0; }
header p { margin: 0; font-size: 6.5pt; text-align: right; }
.legend { font-size: 7pt; margin: 0 0 2mm; }
main.sheet { column-count: 2; column-gap: 5mm; }
section { break-inside: auto; }
h2 { font-size: 9pt; margin: 2mm 0 1mm; padding: 0.3mm 1mm; background: #222; color: #fff; break-after: avoid; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
p.note { margin: 0 0 1mm; }
table { width: 100%; border-collapse: collapse; margin: 0 0 2mm; break-inside: avoid; }
caption { text-align: left; font-weight: bold; font-size: 7.6pt; padding: 0.5mm 0; caption-side: top; }
caption .rule { font-weight: normal; font-style: italic; }
th, td { font-weight: normal; border: 0.4pt solid #777; padding: 0.3mm 0.8mm; vertical-align: top; text-align: left; }
thead th { font-weight: bold; background: #ddd; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
td.value { text-align: center; white-space: nowrap; }
td.text { text-align: left; }
tbody tr:nth-child(even) { background: #f3f3f3; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
tfoot td { border: none; font-style: italic; padding-top: 0.5mm; }
.house { font-weight: bold; outline: 1pt dashed #000; background: #ffe9a8 !important; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.house::after { content: " \2731"; }
.cards { display: grid; grid-template-columns: repeat(3, 1fr); gap: 2.5mm; }
.army { break-before: auto; margin-bottom: 3mm; }
.army + .army { break-before: page; }
.card { border: 0.8pt solid #000; padding: 1.2mm 1.6mm; break-inside: avoid; }
.card h3 { font-size: 8.4pt; margin: 0 0 0.8mm; border-bottom: 0.5pt solid #000; display: flex; justify-content: space-between; gap: 2mm; }
.card h3 .id { font-family: monospace; font-weight: normal; white-space: nowrap; }
.card dl { margin: 0; display: grid; grid-template-columns: max-content 1fr; column-gap: 1.5mm; row-gap: 0.3mm; }
.card dt { font-weight: bold; }
.card dd { margin: 0; }
.card.out { background: repeating-linear-gradient(135deg, #fff, #fff 2mm, #eee 2mm, #eee 4mm); -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.card .out { font-weight: bold; text-transform: uppercase; }
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
pub fn render_sheet(sheet: &Sheet, paper: Paper) -> String {
    let house = sheet.house_cells();
    let body = html! {
        header {
            h1 { (sheet.title) " — quick reference" }
            p { @for (i, s) in sheet.sources.iter().enumerate() { @if i > 0 { br; } (s) } }
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
    };
    page(&format!("{} — quick reference", sheet.title), paper, body)
}

fn card(c: &Card) -> Markup {
    html! {
        div.card.out[c.out_of_action.is_some()] {
            h3 { span { (c.name) } span.id { (c.id) } }
            @if let Some(why) = &c.out_of_action { p.out { (why) } }
            dl {
                @for (label, value) in &c.rows { dt { (label) } dd { (value) } }
            }
        }
    }
}

/// A roster as one printable HTML page: an army a page, a card a unit.
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
                    @if !army.notes.is_empty() {
                        ul.armynotes { @for n in &army.notes { li { (n) } } }
                    }
                    div.cards { @for c in &army.cards { (card(c)) } }
                }
            }
        }
    };
    page(&roster.title, paper, body)
}
