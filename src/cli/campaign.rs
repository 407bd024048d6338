//! `drumhead campaign …`: a campaign's tasks, each a call into
//! [`crate::campaign`] and its answer on standard output.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;

use crate::campaign::{self, CampaignError};
use crate::system::Tables;

/// What `drumhead campaign` does.
#[derive(Debug, Subcommand)]
pub(crate) enum CampaignTask {
    /// Begin a campaign in FILE (TOML) of these armies and of the house
    /// tables given with --tables DIR and --crt FILE, each kept whole.
    /// FILE must be new unless --force is given.
    New {
        /// The campaign file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// An army list of the campaign (repeatable).
        #[arg(long = "army", value_name = "LIST", required = true)]
        armies: Vec<PathBuf>,
        /// Replace FILE if it is an existing regular file.
        #[arg(long)]
        force: bool,
    },
    /// A new battle NAME: NAME.json beside the campaign file, a game of the
    /// campaign's armies as they stand now (the last battle closed).
    Battle {
        /// The campaign file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The battle: its game is NAME.json beside the campaign file.
        #[arg(value_name = "NAME")]
        name: String,
    },
    /// After battle NAME: its journal resolved again whole, and each rule
    /// system's between-battles step, throwing the dice its rules throw
    /// (entered with `rolled FACE…`, else rolled); LINE-WORDS name the
    /// house rows to apply.
    Close {
        /// The campaign file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The battle: its game is NAME.json beside the campaign file.
        #[arg(value_name = "NAME")]
        name: String,
        /// House rows to apply, and `rolled FACE… [roll-rest]`.
        #[arg(value_name = "LINE-WORDS", allow_hyphen_values = true)]
        words: Vec<String>,
        /// The seed of the dice the close rolls.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// The armies as they stand, and each change with its battle, the
    /// journal entries that made it and the close's die.
    Show {
        /// The campaign file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// One JSON object (schemas/campaign.json).
        #[arg(long)]
        json: bool,
    },
    /// Write the armies as they stand into DIR (created if missing), each
    /// an army list under its own file's name; all or none, an existing
    /// file replaced only with --force.
    Export {
        /// The campaign file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        #[arg(short, long = "output", value_name = "DIR")]
        output: PathBuf,
        /// Overwrite lists that already exist in DIR.
        #[arg(long)]
        force: bool,
    },
}

/// Run a campaign task.
pub(super) fn run(task: &CampaignTask, tables: &Tables, wait: bool) -> ExitCode {
    let done = match task {
        CampaignTask::New {
            file,
            armies,
            force,
        } => campaign::begin(file, armies, tables, *force),
        CampaignTask::Battle { file, name } => campaign::battle(file, name, tables),
        CampaignTask::Close {
            file,
            name,
            words,
            seed,
        } => campaign::close(file, name, words, *seed, wait, tables),
        CampaignTask::Show { file, json: true } => campaign::show_json(file, tables),
        CampaignTask::Show { file, json: false } => {
            campaign::show(file, tables, &crate::format::Style::plain(false))
        }
        CampaignTask::Export {
            file,
            output,
            force,
        } => return export(file, output, *force, tables),
    };
    match done {
        Ok(text) => {
            say!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => failed(&e),
    }
}

fn failed(e: &CampaignError) -> ExitCode {
    warn!("error: {e}");
    ExitCode::from(e.code())
}

fn export(file: &std::path::Path, dir: &std::path::Path, force: bool, tables: &Tables) -> ExitCode {
    match campaign::export(file, dir, force, tables) {
        Err(e) => failed(&e),
        Ok(Err(errors)) => super::nothing_written(&errors),
        Ok(Ok(paths)) => {
            for path in paths {
                say!(
                    "wrote {}",
                    crate::text::visible(&path.display().to_string())
                );
            }
            ExitCode::SUCCESS
        }
    }
}
