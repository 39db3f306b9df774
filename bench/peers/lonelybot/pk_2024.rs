// PatienceKit's local driver of lonelybot 3e88e66 (the version of its README's 47.58 %;
// a benchmark peer, not part of lonelybot).
// stdin: one deal a line, "NUMBER DRAW c0 .. c51": lonelybot's deck order, each card
// suit*13+rank in PatienceKit's encoding (suits 0,1 one colour, 2,3 the other).
// `pk solve SECONDS`: "NUMBER solved|unsolvable|terminated MS STATES"
// `pk hop`: "NUMBER won|lost MOVES MS" (lonecli's do_hop: 3000 samples, 1000 visits)
use lonelybot::card::Card;
use lonelybot::engine::Solitaire;
use lonelybot::mcts_solver::pick_moves;
use lonelybot::shuffler::CardDeck;
use lonelybot::solver::{solve_with_tracking, SearchResult};
use lonelybot::tracking::{DefaultTerminateSignal, SearchStatistics, TerminateSignal};
use rand::prelude::*;
use std::cell::Cell;
use std::io::{BufRead, Write};
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
    fn hit_unique_state(&self, _: usize, _: usize) {
        self.0.set(self.0.get() + 1);
    }
    fn finish_move(&self, _: usize) {}
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args[1].clone();
    let seconds: f64 = args.get(2).map_or(60.0, |s| s.parse().unwrap());
    let verbose = std::env::var("PK_VERBOSE").is_ok();
    // lonecli's do_hop budgets (3000 samples for the chosen candidate, 1000-visit
    // searches); PK_HOP_SAMPLES / PK_HOP_VISITS change them for ablations
    let n_times: usize = std::env::var("PK_HOP_SAMPLES").map_or(3000, |s| s.parse().unwrap());
    let limit: usize = std::env::var("PK_HOP_VISITS").map_or(1000, |s| s.parse().unwrap());
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let v: Vec<u64> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
        let number = v[0];
        let draw = v[1] as u8;
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
                _ => "crashed",
            };
            println!("{number} {word} {:.3} {}", start.elapsed().as_secs_f64() * 1000.0, stats.0.get());
        } else {
            // as lonecli's do_hop (its seed: the game number)
            let mut game = Solitaire::new(&deck, draw);
            let mut rng = StdRng::seed_from_u64(number);
            let mut moves = 0;
            let mut won = true;
            while !game.is_win() {
                if moves > 2000 {
                    won = false; // never reached so far; a guard against a loop
                    break;
                }
                let mut gg = game.clone();
                gg.get_hidden_mut().clear();
                let best = pick_moves(&mut gg, &mut rng, n_times, limit, &DefaultTerminateSignal {});
                let Some(best) = best else {
                    won = false;
                    break;
                };
                if verbose {
                    eprintln!("{moves} {} {:.1}s", best.iter().map(|m| format!("{m}")).collect::<Vec<_>>().join(","), start.elapsed().as_secs_f64());
                }
                for m in best {
                    game.do_move(&m);
                    moves += 1;
                }
            }
            println!("{number} {} {moves} {:.1}", if won { "won" } else { "lost" }, start.elapsed().as_secs_f64() * 1000.0);
        }
        std::io::stdout().flush().unwrap();
    }
}
