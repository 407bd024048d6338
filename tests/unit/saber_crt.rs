//! The CRT engine's file checks: ten malformed CRT files, each with the
//! precise error a user would see (file, line, column, die row, CRT column).

use crate::saber::crt::{Code, Column, Crt, CrtKind, Extra};

fn error(file: &str) -> String {
    let path = format!("tests/data/crt/{file}");
    let text = std::fs::read_to_string(&path).expect("test file");
    match Crt::parse(&path, &text) {
        Ok(_) => panic!("{file} should not load"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn ten_malformed_crts() {
    let cases = [
        (
            "01-short-row.toml",
            "01-short-row.toml:6:3: rows[1] (die 2) has 2 cells; there are 3 columns",
        ),
        (
            "02-unknown-code.toml",
            "02-unknown-code.toml:7:10: rows[2][1] (die 3, column 0): `Xq` is not a combat result",
        ),
        (
            "03-unclosed-parenthesis.toml",
            "03-unclosed-parenthesis.toml:8:16: rows[3][2] (die 4, column +1): `(Dr` has no closing parenthesis",
        ),
        (
            "04-five-rows.toml",
            "`rows` has 5 rows; a CRT has one row per face of the combat die, 6 rows",
        ),
        (
            "05-columns-out-of-order.toml",
            "05-columns-out-of-order.toml:3:19: columns[2] (0) does not come after +1",
        ),
        (
            "06-unknown-kind.toml",
            "06-unknown-kind.toml:2:8: kind `odds` is not `differential` or `ratio`",
        ),
        (
            "07-bad-ratio-column.toml",
            "07-bad-ratio-column.toml:3:19: columns[1] is \"1-1\": a ratio column is two whole numbers",
        ),
        (
            "08-unknown-extra.toml",
            "08-unknown-extra.toml:9:16: rows[4][2] (die 5, column +1): `Boom` is not an extra result",
        ),
        (
            "09-empty-cell.toml",
            "09-empty-cell.toml:10:4: rows[5][0] (die 6, column −1): the cell is empty",
        ),
        (
            "10-misspelt-key.toml",
            "10-misspelt-key.toml:4:1: unknown field `row`",
        ),
    ];
    for (file, expected) in cases {
        let e = error(file);
        assert!(
            e.contains(expected),
            "{file}: got `{e}`, expected `{expected}`"
        );
    }
}

#[test]
fn the_shipped_example_says_it_is_illustrative_and_loads() {
    let tables = crate::saber::Tables::embedded().expect("embedded tables load");
    assert!(tables.crt.name.contains("illustrative"));
    assert!(tables.crt.name.contains("not from any published folio"));
    assert_eq!(tables.crt.kind, CrtKind::Differential);
    assert_eq!(tables.crt.rows.len(), 6);
}

#[test]
fn a_ratio_crt_loads() {
    let text = std::fs::read_to_string("tests/data/crt/ratio.toml").unwrap();
    let crt = Crt::parse("ratio.toml", &text).unwrap();
    assert_eq!(crt.kind, CrtKind::Ratio);
    assert_eq!(crt.columns[0], Column::Ratio(1, 3));
    assert_eq!(crt.columns[5], Column::Ratio(4, 1));
}

#[test]
fn cells_parse_into_primary_secondary_and_extras() {
    let text = "name = \"t\"\nkind = \"differential\"\ncolumns = [0, 1]\nrows = [\n[\"Dm (Dr) L\", \"Ex, DF\"],\n[\"NE\", \"ac(ne) ammo\"],\n[\"NE\", \"NE\"],\n[\"NE\", \"NE\"],\n[\"NE\", \"NE\"],\n[\"NE\", \"NE\"],\n]\n";
    let crt = Crt::parse("t", text).unwrap();
    let c = &crt.rows[0][0];
    assert_eq!((c.primary, c.secondary), (Code::Dm, Some(Code::Dr)));
    assert_eq!(c.extras, vec![Extra::L]);
    let c = &crt.rows[0][1];
    assert_eq!((c.primary, c.secondary), (Code::Ex, None));
    assert_eq!(c.extras, vec![Extra::DF]);
    let c = &crt.rows[1][1];
    assert_eq!((c.primary, c.secondary), (Code::Ac, Some(Code::NE)));
    assert_eq!(c.extras, vec![Extra::Ammo]);
}
