//! Double Fischer random (DFRC) start positions: each side's back rank one of Chess960's 960
//! arrangements, drawn independently, so 960 × 960 = 921,600 starts (the 960 with both sides
//! alike are Chess960's own). Arrangements are numbered as Scharnagl numbers them (0–959; 518 is
//! the standard one), and a DFRC start `w × 960 + b` has White's arrangement `w` and Black's `b`.

use cozy_chess::Board;
use engine::Variant;
use rand::rngs::ChaCha8Rng;
use rand::seq::index::sample;
use rand::SeedableRng;

/// Chess960 arrangements of one back rank.
pub const ARRANGEMENTS: usize = 960;
/// DFRC starts: every pair of arrangements.
pub const STARTS: usize = ARRANGEMENTS * ARRANGEMENTS;

/// The two knights' places among the five squares left after bishops and queen (Scharnagl's
/// table, by the number's remaining 0–9).
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// `count` DFRC starts: all of them, in number order, when `count` is 921,600, else a sample
/// without replacement drawn from `seed` (in the order drawn).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dfrc {
    /// How many starts.
    pub count: usize,
    /// The sample's seed.
    pub seed: u64,
}

impl Dfrc {
    /// The starts with their origin (`DFRC w/b`), or why `count` is out of range.
    pub fn starts(&self) -> Result<Vec<(Board, String)>, String> {
        if self.count == 0 || self.count > STARTS {
            return Err(format!(
                "--dfrc takes 1 to {STARTS} starts (960 × 960), found {}",
                self.count
            ));
        }
        let numbers: Vec<usize> = if self.count == STARTS {
            (0..STARTS).collect()
        } else {
            let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
            sample(&mut rng, STARTS, self.count).into_vec()
        };
        Ok(numbers
            .into_iter()
            .map(|n| {
                let (white, black) = (n / ARRANGEMENTS, n % ARRANGEMENTS);
                let origin = format!("DFRC {white}/{black} seed {}", self.seed);
                (start(white, black), origin)
            })
            .collect())
    }
}

/// The back rank of Scharnagl's number `n` (0–959), a1 to h1, as piece letters.
pub fn arrangement(n: usize) -> [char; 8] {
    let mut rank = [' '; 8];
    let mut n = n % ARRANGEMENTS;
    rank[2 * (n % 4) + 1] = 'b';
    n /= 4;
    rank[2 * (n % 4)] = 'b';
    n /= 4;
    place_on_empty(&mut rank, n % 6, 'q');
    let (first, second) = KNIGHTS[n / 6];
    // The second knight's index counts the squares left after the first is placed.
    place_on_empty(&mut rank, second, 'n');
    place_on_empty(&mut rank, first, 'n');
    for piece in ['r', 'k', 'r'] {
        place_on_empty(&mut rank, 0, piece);
    }
    rank
}

fn place_on_empty(rank: &mut [char; 8], index: usize, piece: char) {
    let square = (0..8)
        .filter(|&i| rank[i] == ' ')
        .nth(index)
        .expect("a free square");
    rank[square] = piece;
}

/// The DFRC start with White's arrangement `white` and Black's `black`, every castling right.
pub fn start(white: usize, black: usize) -> Board {
    let (w, b) = (arrangement(white), arrangement(black));
    let rooks = |rank: &[char; 8]| -> String {
        // Shredder-FEN: the short side's rook file first, then the long side's.
        let mut files: Vec<char> = (0..8)
            .filter(|&i| rank[i] == 'r')
            .map(|i| (b'a' + i as u8) as char)
            .collect();
        files.reverse();
        files.into_iter().collect()
    };
    let black_rank: String = b.iter().collect();
    let white_rank: String = w.iter().map(|c| c.to_ascii_uppercase()).collect();
    let fen = format!(
        "{black_rank}/pppppppp/8/8/8/8/PPPPPPPP/{white_rank} w {}{} - 0 1",
        rooks(&w).to_ascii_uppercase(),
        rooks(&b)
    );
    Variant::Chess960
        .parse_fen(&fen)
        .expect("every arrangement is a legal start")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scharnagl_numbers_give_the_known_arrangements() {
        let text = |n| arrangement(n).iter().collect::<String>();
        assert_eq!(text(518), "rnbqkbnr", "518 is standard chess");
        assert_eq!(text(0), "bbqnnrkr");
        assert_eq!(text(959), "rkrnnqbb");
        let all: std::collections::HashSet<String> = (0..ARRANGEMENTS).map(text).collect();
        assert_eq!(all.len(), ARRANGEMENTS, "960 different arrangements");
        for rank in &all {
            let (r1, k, r2) = (
                rank.find('r').unwrap(),
                rank.find('k').unwrap(),
                rank.rfind('r').unwrap(),
            );
            assert!(r1 < k && k < r2, "{rank}: king between the rooks");
            let bishops: Vec<usize> = rank.match_indices('b').map(|(i, _)| i).collect();
            assert_ne!(
                bishops[0] % 2,
                bishops[1] % 2,
                "{rank}: bishops on both colours"
            );
        }
    }

    #[test]
    fn a_start_is_a_chess960_position_with_every_right() {
        let board = start(518, 518);
        assert_eq!(
            Variant::Chess960.fen(&board),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
        let dfrc = start(0, 959);
        assert_eq!(
            Variant::Chess960.fen(&dfrc),
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1"
        );
    }

    #[test]
    fn samples_are_seeded_distinct_and_bounded() {
        let a = Dfrc { count: 50, seed: 7 }.starts().unwrap();
        let b = Dfrc { count: 50, seed: 7 }.starts().unwrap();
        let c = Dfrc { count: 50, seed: 8 }.starts().unwrap();
        let origins = |v: &[(Board, String)]| v.iter().map(|(_, o)| o.clone()).collect::<Vec<_>>();
        assert_eq!(origins(&a), origins(&b));
        assert_ne!(origins(&a), origins(&c));
        let distinct: std::collections::HashSet<String> =
            a.iter().map(|(board, _)| board.to_string()).collect();
        assert_eq!(distinct.len(), 50);
        assert!(Dfrc { count: 0, seed: 0 }.starts().is_err());
        assert!(Dfrc {
            count: STARTS + 1,
            seed: 0
        }
        .starts()
        .unwrap_err()
        .contains("921600"));
    }
}
