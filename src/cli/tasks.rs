//! The subcommands that resolve no line: which of them the line names
//! (those that read no tables first), checking lists and tables,
//! replaying and repairing a game, the manual and shell completions.

use std::path::PathBuf;
use std::process::ExitCode;

use std::io::{self, IsTerminal, Write};

use super::{
    Args, TablesTask, Task, campaign, config, export, manpage, new_army, pocket, print,
    table_source,
};
use crate::system::{Registry, Tables};
use crate::tables::TableSource;

/// Options that apply to resolving lines, given to a subcommand.
pub(super) fn options_not_for(args: &Args) -> Option<ExitCode> {
    let task = args.task.as_ref()?;
    let ignored = args.for_lines_only();
    if ignored.is_empty() {
        return None;
    }
    warn!(
        "error: {} {} to resolving lines, not to `drumhead {}`: leave {} out",
        ignored.join(", "),
        if ignored.len() == 1 {
            "applies"
        } else {
            "apply"
        },
        task.name(),
        if ignored.len() == 1 { "it" } else { "them" },
    );
    Some(ExitCode::from(2))
}

/// The subcommands that read no tables (or the configuration file).
pub(super) fn task_without_tables(args: &Args, registry: &Registry) -> Option<ExitCode> {
    // Needs no tables: a broken --tables must not keep a user from a template.
    if let Some(Task::NewArmy {
        book,
        output,
        force,
    }) = &args.task
    {
        return Some(new_army::run(registry, book, output.as_deref(), *force));
    }
    // Nor to get the embedded tables back.
    if let Some(Task::Tables {
        task: TablesTask::Export { dir, force },
    }) = &args.task
    {
        return Some(export::run(registry, dir, *force));
    }
    if let Some(Task::Config) = &args.task {
        return Some(config::show(args, registry));
    }
    // The page carries the embedded tables, whatever --tables says.
    if let Some(Task::Pocket { page }) = &args.task {
        if args.tables.is_some() || args.crt.is_some() {
            warn!(
                "error: the pocket page carries the embedded tables: --tables and --crt do not \
                 change it; leave them out"
            );
            return Some(ExitCode::from(2));
        }
        return Some(pocket::run(page.to()));
    }
    None
}

/// The subcommands that read the tables but resolve no line.
pub(super) fn task_with_tables(
    args: &Args,
    registry: &Registry,
    tables: &Tables,
) -> Option<ExitCode> {
    match &args.task {
        Some(Task::Check { files }) => return Some(check(files, registry)),
        Some(Task::Replay { journal }) => return Some(replay(journal, tables.clone())),
        Some(Task::Campaign { task }) => return Some(campaign::run(task, tables, args.wait)),
        Some(Task::Repair { game, apply }) => return Some(repair(game, *apply, tables, args.wait)),
        Some(Task::Man { dir, force }) => return Some(man(dir, *force, tables)),
        Some(Task::Completions { shell }) => return Some(completions(*shell)),
        Some(Task::Serve(o)) => return Some(serve(o, registry, args)),
        Some(Task::Sheet { system, print }) => {
            let source = table_source(args.tables.as_deref(), args.crt.as_deref());
            return Some(match source {
                Ok(source) => print::sheet(registry, &source, system, print.page.to(), print.paper),
                Err(e) => {
                    warn!("error: {e}");
                    ExitCode::from(2)
                }
            });
        }
        Some(Task::Roster {
            armies,
            game,
            print,
        }) => {
            // The configuration file's armies, when the line names none.
            let armies = if armies.is_empty() && game.is_none() {
                &args.army
            } else {
                armies
            };
            return Some(print::roster(
                tables,
                armies,
                game.as_deref(),
                args.wait,
                print.page.to(),
                print.paper,
            ));
        }
        Some(Task::NewArmy { .. } | Task::Tables { .. } | Task::Config | Task::Pocket { .. })
        | None => {}
    }
    None
}

/// `drumhead serve`: the games' live views, with the tables the line and
/// the configuration file name.
pub(super) fn serve(options: &crate::serve::Options, registry: &Registry, args: &Args) -> ExitCode {
    match super::table_source(args.tables.as_deref(), args.crt.as_deref()) {
        Ok(source) => crate::serve::run(options, registry, source),
        Err(e) => {
            warn!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `drumhead check FILE…`: army lists (and house-rule tables by their
/// file name) checked without resolving anything.
pub fn check(files: &[PathBuf], registry: &Registry) -> ExitCode {
    let mut bad = 0;
    let is_table = |file: &PathBuf| {
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        registry
            .table_files()
            .iter()
            .any(|f| f.name == name || f.embedded_name == name)
    };
    for file in files.iter().filter(|f| is_table(f)) {
        // The file alone, merged over the embedded tables: whatever else
        // lies in its directory (army lists) is not checked as a table.
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let name = registry
            .table_files()
            .iter()
            .find(|f| f.name == name || f.embedded_name == name)
            .map_or(name, |f| f.name);
        let source = TableSource::embedded().with_file(name, file);
        match registry.load(&source) {
            Ok(_) => say!("{}: tables ok", file.display()),
            Err(e) => {
                bad += 1;
                warn!("error: {e}");
            }
        }
    }
    let armies: Vec<&std::path::Path> = files
        .iter()
        .filter(|f| !is_table(f))
        .map(PathBuf::as_path)
        .collect();
    let schemas = crate::game::schemas_of(registry);
    let tables = registry.load(&TableSource::embedded()).ok();
    for result in crate::army::check_files(&armies, &schemas) {
        let words = match (&result, &tables) {
            (Ok(army), Some(tables)) => {
                crate::game::check_ids_are_not_words(std::slice::from_ref(army), tables)
            }
            _ => Ok(()),
        };
        match (result, words) {
            (Ok(_), Err(e)) => {
                bad += 1;
                warn!("error: {e}");
            }
            (Ok(army), Ok(())) => say!("{}", crate::army::summary(&army)),
            (Err(e), _) => {
                bad += 1;
                warn!("error: {e}");
            }
        }
    }
    if bad > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `drumhead replay JOURNAL`.
pub(crate) fn replay(journal: &std::path::Path, tables: Tables) -> ExitCode {
    let watched = io::stdout().is_terminal() && io::stderr().is_terminal();
    let mut bar: Option<crate::session::explore::Progress> = None;
    let done = crate::replay::replay_with(journal, tables, &mut |done, all| {
        bar.get_or_insert_with(|| {
            crate::session::explore::Progress::new(watched, all as u64, "replay")
        })
        .at(done as u64);
    });
    drop(bar);
    match done {
        Ok(text) => {
            say!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            warn!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// `drumhead repair GAME [--apply]`: what can be done about a game whose
/// file and journal disagree; done only with `--apply`.
pub(crate) fn repair(path: &std::path::Path, apply: bool, tables: &Tables, wait: bool) -> ExitCode {
    let options = apply.then_some(crate::game::Options { wait });
    let mut had_steps = false;
    let done = crate::repair::plan_and_apply(path, tables, options, &mut |plan| {
        say!("{}", plan.describe());
        had_steps = !plan.steps.is_empty();
    });
    match done {
        Ok(true) => {
            say!("done");
            ExitCode::SUCCESS
        }
        Ok(false) => {
            if had_steps {
                say!(
                    "nothing was changed: run `drumhead repair {} --apply` to do this",
                    path.display()
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            warn!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// `drumhead man DIR [--force]`: the manual pages, generated from the
/// program and the loaded tables, all written or none.
pub(crate) fn man(dir: &std::path::Path, force: bool, tables: &Tables) -> ExitCode {
    let catalog = crate::session::catalog(tables);
    match manpage::write_pages(dir, &catalog, force) {
        Ok(paths) => {
            for path in paths {
                say!(
                    "wrote {}",
                    crate::text::visible(&path.display().to_string())
                );
            }
            ExitCode::SUCCESS
        }
        Err(errors) => nothing_written(&errors),
    }
}

/// A folder of files that was not written: each reason, and the exit code
/// (2 when a path was refused, 1 when a write failed).
pub(crate) fn nothing_written(errors: &[crate::files::OutputError]) -> ExitCode {
    for e in errors {
        warn!("error: {e}");
    }
    warn!("nothing was written");
    let refused = errors.iter().any(crate::files::OutputError::is_refusal);
    ExitCode::from(if refused { 2 } else { 1 })
}

/// `drumhead completions SHELL`: a completion script on stdout.
pub(crate) fn completions(shell: clap_complete::Shell) -> ExitCode {
    use clap::CommandFactory;
    let mut cmd = Args::command();
    // Into a buffer first: the generator panics on a failed write, and a
    // closed pipe (`drumhead completions bash | head`) is not a failure.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "drumhead", &mut script);
    match io::stdout().lock().write_all(&script) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            warn!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// A task's own options typed before its name (`drumhead --game g.json
/// roster -o x.html`) are the task's: it takes them, rather than refusing
/// them as options of resolving lines. Two games, one each side of the
/// name, are refused.
pub(super) fn carry_into_task(args: &mut Args) -> Option<ExitCode> {
    let Some(Task::Roster {
        armies,
        game,
        print,
    }) = &mut args.task
    else {
        return None;
    };
    match (args.game.take(), &game) {
        (Some(before), Some(after)) if before != *after => {
            warn!(
                "error: two games for `roster`: --game {} before it and --game {} after it; give one: `drumhead roster --game {} -o FILE`",
                before.display(),
                after.display(),
                after.display()
            );
            return Some(ExitCode::from(2));
        }
        (Some(before), None) => *game = Some(before),
        _ => {}
    }
    if !args.army.is_empty() {
        let mut given = std::mem::take(&mut args.army);
        given.append(armies);
        *armies = given;
    }
    let mut carried = vec!["game", "army"];
    if args.force && print.page.output.is_some() {
        print.page.force = true;
        args.force = false;
        carried.push("force");
    }
    // What the task took is no longer the lines' to refuse.
    args.given.retain(|id| !carried.contains(&id.as_str()));
    None
}

/// The tasks' names, for suggesting one for a misspelt line
/// (`drumhead shet`).
pub(crate) fn names() -> Vec<String> {
    use clap::CommandFactory as _;
    Args::command()
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    /// The pocket page tells a misspelt task as the command line does:
    /// its list of the tasks is the command line's own.
    #[test]
    fn the_pocket_knows_the_command_lines_tasks() {
        assert_eq!(super::names(), crate::pocket::TASKS);
    }
}
