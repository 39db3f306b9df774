// PatienceKit's local driver of lonelybot (a benchmark peer; not part of lonelybot).
// stdin: one deal a line, "NUMBER DRAW c0 .. c51": lonelybot's deck order, each card
// suit*13+rank in PatienceKit's encoding (suits 0,1 one colour, 2,3 the other).
// `pk solve SECONDS`: "NUMBER solved|unsolvable|terminated MS STATES"
// `pk hop`: "NUMBER won|lost MOVES MS" (lonecli's do_hop: 3000 samples, 1000 visits)
use lonelybot::card::Card;
use lonelybot::engine::SolitaireEngine;
use lonelybot::mcts_solver::pick_moves;
use lonelybot::pruning::NoPruner;
use lonelybot::shuffler::CardDeck;
use lonelybot::solver::{solve_with_tracking, SearchResult};
use lonelybot::state::Solitaire;
use lonelybot::tracking::{DefaultTerminateSignal, SearchStatistics, TerminateSignal};
use rand::prelude::*;
use std::cell::Cell;
use std::io::BufRead;
use std::num::NonZeroU8;
use std::time::{Duration, Instant};

struct Deadline(Instant);
impl TerminateSignal for Deadline {
    fn is_terminated(&self) -> bool {
        Instant::now() > self.0
    }
}
struct Count(Cell<u64>);
impl SearchStatistics for Count {
    fn hit_a_state(&self, _: usize) {}
    fn hit_unique_state(&self, _: usize, _: u32) {
        self.0.set(self.0.get() + 1);
    }
    fn finish_move(&self, _: usize) {}
}

fn ucb1(n_sucess: usize, n_visit: usize, n_total: usize) -> f64 {
    const C: f64 = 2.;
    #[allow(clippy::cast_precision_loss)]
    if n_visit == 0 {
        f64::INFINITY
    } else {
        n_sucess as f64 / n_visit as f64 + C * ((n_total as f64).ln() / n_visit as f64).sqrt()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args[1].clone();
    let seconds: f64 = args.get(2).map_or(60.0, |s| s.parse().unwrap());
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let v: Vec<u64> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
        let number = v[0];
        let draw = NonZeroU8::new(v[1] as u8).unwrap();
        let deck: CardDeck = core::array::from_fn(|i| {
            let c = v[2 + i] as u8;
            Card::new(c % 13, c / 13)
        });
        let start = Instant::now();
        if mode == "solve" {
            let mut g = Solitaire::new(&deck, draw);
            let sign = Deadline(start + Duration::from_secs_f64(seconds));
            let stats = Count(Cell::new(0));
            let (res, _) = solve_with_tracking(&mut g, &stats, &sign);
            let word = match res {
                SearchResult::Solved => "solved",
                SearchResult::Unsolvable => "unsolvable",
                SearchResult::Terminated => "terminated",
                SearchResult::Crashed => "crashed",
            };
            println!("{number} {word} {:.3} {}", start.elapsed().as_secs_f64() * 1000.0, stats.0.get());
        } else {
            let mut game: SolitaireEngine<NoPruner> = Solitaire::new(&deck, draw).into();
            let mut rng = SmallRng::seed_from_u64(number);
            let mut moves = 0;
            let mut won = true;
            while !game.state().is_win() {
                // Every face-down card known (at most one left unseen): the rest is a
                // full-information game, decided by the exact solver (as lonelybot's
                // hop_solve_game treats it). This lonelybot version's pick_moves can
                // otherwise alternate two moves for ever at such a position.
                if game.state().get_hidden().total_down_cards() <= 1 {
                    let mut g = game.state().clone();
                    won = matches!(lonelybot::solver::solve(&mut g).0, SearchResult::Solved);
                    break;
                }
                if moves > 2000 {
                    won = false;
                    break;
                }
                let mut gg = game.state().clone();
                gg.hidden_clear();
                let best = pick_moves(&mut gg, &mut rng, 3000, 1000, &DefaultTerminateSignal {}, ucb1);
                let Some(best) = best else {
                    won = false;
                    break;
                };
                if std::env::var("PK_VERBOSE").is_ok() {
                    eprintln!("{moves} {} {:.1}s", best.iter().map(|m| format!("{m}")).collect::<Vec<_>>().join(","), start.elapsed().as_secs_f64());
                }
                for m in best {
                    game.do_move(m);
                    moves += 1;
                }
            }
            println!("{number} {} {moves} {:.1}", if won { "won" } else { "lost" }, start.elapsed().as_secs_f64() * 1000.0);
        }
        use std::io::Write;
        std::io::stdout().flush().unwrap();
    }
}
