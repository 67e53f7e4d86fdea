//! The README's key table is the program's own: `src/app/keys.rs`'s `BINDINGS` (the table the
//! input code and the help overlay read) and the table under README.md's `## Keys` list the same
//! keys, in the same order, each with the same words. A key added, removed or reworded on one side
//! only fails here, with the row to write.

use steering_arena::app::keys::BINDINGS;

/// The README's table header, the line the parser looks for.
const HEADER: &str = "| key | what it does |";

/// One row as the README writes it.
fn row(label: &str, help: &str) -> String {
    format!("| `{label}` | {help} |")
}

/// The table the code implies, one row per binding.
fn code_rows() -> Vec<(String, String)> {
    BINDINGS
        .iter()
        .map(|b| (b.label.to_string(), b.help.to_string()))
        .collect()
}

/// The rows of the first table under `## Keys` in `readme`, as (key, description).
fn readme_rows(readme: &str) -> Result<Vec<(String, String)>, String> {
    let mut lines = readme.lines();
    lines
        .by_ref()
        .find(|l| l.trim() == "## Keys")
        .ok_or("README.md has no `## Keys` section")?;
    let header = lines
        .by_ref()
        .find(|l| l.starts_with('|'))
        .ok_or("no table under `## Keys`")?;
    if header.trim() != HEADER {
        return Err(format!(
            "the table under `## Keys` starts {header:?}, expected {HEADER:?}"
        ));
    }
    match lines.next() {
        Some(l) if l.trim() == "|---|---|" => {}
        other => {
            return Err(format!(
                "expected `|---|---|` under the header, got {other:?}"
            ));
        }
    }
    let mut rows = Vec::new();
    for line in lines.take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line
            .trim()
            .trim_start_matches('|')
            .trim_end_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        let [key, what] = cells[..] else {
            return Err(format!("a row of other than two cells: {line:?}"));
        };
        let key = key
            .strip_prefix('`')
            .and_then(|k| k.strip_suffix('`'))
            .ok_or_else(|| format!("a key not in backticks: {line:?}"))?;
        rows.push((key.to_string(), what.to_string()));
    }
    Ok(rows)
}

/// What differs between the code's rows and the README's, one line each (empty: none).
fn differences(code: &[(String, String)], readme: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (key, help) in code {
        match readme.iter().find(|(k, _)| k == key) {
            None => problems.push(format!(
                "`{key}` is bound in the code but not in the README"
            )),
            Some((_, what)) if what != help => problems.push(format!(
                "`{key}`: the code says {help:?}, the README {what:?}"
            )),
            Some(_) => {}
        }
    }
    for (i, (key, _)) in readme.iter().enumerate() {
        if !code.iter().any(|(k, _)| k == key) {
            problems.push(format!("`{key}` is in the README but bound to nothing"));
        }
        if readme[..i].iter().any(|(k, _)| k == key) {
            problems.push(format!("`{key}` has more than one row in the README"));
        }
    }
    problems
}

#[test]
fn every_binding_can_be_written_as_one_table_row() {
    for b in BINDINGS.iter() {
        for text in [b.label, b.help] {
            assert!(
                !text.is_empty() && !text.contains('|') && !text.contains('`'),
                "{:?} cannot stand in a Markdown table cell",
                text
            );
        }
    }
}

#[test]
fn the_readme_key_table_is_the_code_key_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let readme = std::fs::read_to_string(path).expect("README.md is readable");
    let code = code_rows();
    let expected: Vec<String> = code.iter().map(|(k, h)| row(k, h)).collect();
    let hint = format!(
        "the table under `## Keys` should read:\n{HEADER}\n|---|---|\n{}",
        expected.join("\n")
    );
    let readme = readme_rows(&readme).unwrap_or_else(|e| panic!("{e}\n{hint}"));

    let problems = differences(&code, &readme);
    assert!(problems.is_empty(), "{}\n{hint}", problems.join("\n"));
    // Same rows: then the same order too, the help overlay's.
    assert_eq!(readme, code, "the rows are in another order\n{hint}");
    assert_eq!(readme.len(), BINDINGS.len());
}

#[test]
fn a_missing_a_reworded_an_extra_and_a_doubled_key_are_each_named() {
    let rows = |r: &[(&str, &str)]| -> Vec<(String, String)> {
        r.iter()
            .map(|(k, h)| (k.to_string(), h.to_string()))
            .collect()
    };
    let code = rows(&[("G", "tile grid on/off"), ("R", "reset"), ("Esc", "quit")]);
    assert!(differences(&code, &code).is_empty());
    let readme = rows(&[
        ("G", "grid"),
        ("Esc", "quit"),
        ("Q", "quit too"),
        ("Esc", "quit"),
    ]);
    assert_eq!(
        differences(&code, &readme),
        vec![
            "`G`: the code says \"tile grid on/off\", the README \"grid\"",
            "`R` is bound in the code but not in the README",
            "`Q` is in the README but bound to nothing",
            "`Esc` has more than one row in the README",
        ]
    );
}

#[test]
fn the_table_parser_reads_rows_until_the_table_ends_and_refuses_other_forms() {
    let table = |rows: &[(&str, &str)]| {
        let body: Vec<String> = rows.iter().map(|(k, h)| row(k, h)).collect();
        format!(
            "# x\n\n## Keys\n\n{HEADER}\n|---|---|\n{}\n\nafter\n| `no` | table |\n",
            body.join("\n")
        )
    };
    let parsed = readme_rows(&table(&[("G", "tile grid on/off"), ("Esc", "quit")]))
        .expect("a well-formed table parses");
    assert_eq!(
        parsed,
        vec![
            ("G".to_string(), "tile grid on/off".to_string()),
            ("Esc".to_string(), "quit".to_string())
        ],
        "rows end at the first line that is not a table row"
    );
    assert!(readme_rows("## Keys\n\n| key | action |\n|---|---|\n").is_err());
    assert!(readme_rows(&format!("## Keys\n{HEADER}\n|---|---|\n| G | grid |\n")).is_err());
    assert!(readme_rows("no keys here").is_err());
}
