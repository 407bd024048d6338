//! drumhead(1)'s CAMPAIGNS: armies carried from battle to battle.

use roff::Roff;

use super::roff_text::{example_block, para, tagged};

pub(super) fn campaigns_section(roff: &mut Roff) {
    roff.control("SH", ["CAMPAIGNS"]);
    para(
        roff,
        "A campaign is a series of battles of the same armies, each starting from what the one \
         before left. The campaign file (TOML, C.toml) holds the starting armies' text and the \
         house tables whole, as a game's journal header does, then each battle in order: its \
         game's id, and once it is closed the mark of its journal at the close (its entries and \
         the SHA-256 of the last one's line), the close's words and dice, each change it made \
         with the journal entries that made it (their numbers, lines and hashes), and the armies \
         as the close left them; and a check over all of it. Each battle is a game of its own, \
         NAME.json and NAME.json.journal beside the campaign file, played as any game.",
    );
    tagged(
        roff,
        "drumhead campaign new C.toml --army LIST… [--tables DIR] [--crt FILE] [--force]",
        "Begin a campaign of these lists, which must make a game together, under the house \
         tables given (kept whole: every battle and close is played under them, and --tables \
         given later must be the same). C.toml must be new (an existing regular file is \
         replaced with --force, never another campaign file, nor a game's).",
    );
    tagged(
        roff,
        "drumhead campaign battle C.toml NAME",
        "Make NAME.json, a new game of the armies as they stand now, and record it as the \
         campaign's next battle. NAME is lowercase letters, digits and -; the game must not be \
         there already, the last battle must have been closed, and every closed battle's \
         journal must still hold what was closed (its chain, read to the entry it was closed \
         at, ends where the close recorded; entries added after it do not count).",
    );
    tagged(
        roff,
        "drumhead campaign close C.toml NAME [WORD…] [rolled FACE… [roll-rest]] [--seed N]",
        "After the battle: its journal is resolved again whole, as replay does (under the \
         game's lock, so that no line is written meanwhile), and must be of the game the \
         campaign made and of the armies as they stood; then each rule system's \
         between-battles step says what its armies carry to the next battle, and the close \
         writes it into the lists' text (their comments and layout kept) and reads them \
         again. The dice its rules throw after a battle are thrown one an entry, in roster \
         order: entered after rolled (too few are refused, saying how many it throws, unless \
         roll-rest follows them), else rolled, their seed recorded. WORDs name the house rows \
         to apply. A battle is closed once; what was closed stands. The answer names each \
         change, the entries that made it, its die, the rules followed and each house row, \
         applied or not and why (its default, or the close line).",
    );
    tagged(
        roff,
        "drumhead campaign show C.toml [--json]",
        "The battles, the armies as they stand (as units shows them, entries held out named \
         under each army), and each entry's history: battle by battle, what became of it, the \
         journal entries that made it with their lines, and the close's die. --json gives one \
         object, of type campaign (schemas/campaign.json).",
    );
    tagged(
        roff,
        "drumhead campaign export C.toml -o DIR [--force]",
        "Write the armies as they stand into DIR, each list under the name of the file it began \
         as (see OUTPUT FILES): army lists any drumhead command takes, carrying the campaign in \
         the keys of drumhead-armies(5), CAMPAIGN KEYS.",
    );
    tagged(
        roff,
        "drumhead replay C.toml",
        "Told by its contents, a campaign file is replayed whole: every battle's journal is \
         resolved again up to the entry it was closed at, each entry that made a change must \
         hash to what the close recorded, the game must be the campaign's and of the armies as \
         they stood, and each close, run again with the dice it recorded, must give the \
         changes and the lists the campaign recorded. A failure names the battle and the \
         entry; entries added to a battle's journal after its close are said, and are not the \
         campaign's. It writes nothing.",
    );
    carried(roff);
}

/// What carries over, system by system; what a campaign file from
/// elsewhere can do; an example.
fn carried(roff: &mut Roff) {
    para(
        roff,
        "What carries over is each rule system's, in its book's section of the house table \
         campaign.toml ([drums], [mayhem], [saber], [saber-quickplay]; a campaign.toml in \
         --tables DIR at campaign new names only what it changes, and the campaign file keeps \
         it), with a house row a club may turn on (default = true in a house file, or named on \
         the close line); the close's answer names each rule and row with its section of \
         campaign.toml. Drums and Muskets ([drums]): bases lost carry over, hits short of a \
         base are dropped, broken units return with the bases they had, a unit that lost every \
         base is gone, generals incapacitated are gone; the house row returning gives back a \
         share of the bases lost. Musket Mayhem ([mayhem]): each figure downed by enemy \
         action that the game did not dice for (post-battle) is diced for on the post-battle \
         results of mayhem.toml, wounded figures return and dead ones are gone, figures that ran return, \
         heroes' tokens are refreshed; the house row wounded-rest keeps the wounded out of the \
         next battle. Musket & Saber ([saber], [saber-quickplay]): a brigade that lost a \
         step starts reduced, eliminated units, units captured (capture CF vs UNIT) and killed \
         leaders are gone, ineffective and disrupted units recover; the house row step-recovery restores a reduced brigade. A \
         rule system that says nothing of campaigns carries nothing: its lists stay as they \
         were.",
    );
    para(
        roff,
        "A campaign file may come from another club: it is read bounded (see LIMITS), every \
         name, id and list in it is checked before it is used, battles' games are only ever \
         NAME.json beside it, a hand edit is found by its check (show, battle and close refuse \
         it), and replay proves the rest from the battles' journals. Reading one writes nothing \
         and runs nothing.",
    );
    para(roff, "For example:");
    example_block(
        roff,
        [
            "drumhead campaign new c.toml --army prussians.toml --army austrians.toml",
            "drumhead campaign battle c.toml leuthen",
            "drumhead --game leuthen.json 'hits gren-1 12'",
            "drumhead campaign close c.toml leuthen",
            "drumhead campaign export c.toml -o lists",
        ],
    );
}
