// ZeroBoard's NBoard front end for Egaroucid's web-edition engine (the othello reference engine).
//
// Written for ZeroBoard; it contains none of Egaroucid's code. It is compiled together with the
// headers of Egaroucid's `src/web` directory (github.com/Nyanyan/Egaroucid, GPL-3.0-or-later) by
// tools/refengines/build_egaroucid.sh, which fetches them; the resulting binary is a local
// measuring tool and is never distributed with ZeroBoard.
//
//   nboard-egaroucid-web [LEVEL [SEED]]      LEVEL 0..60 (default 5), SEED of the hash keys (default 1)
//
// The move is the web edition's own: `ai(board, LEVEL, use_book, use_multi_thread, show_log)` with
// the evaluation compiled in (evaluate_const.hpp), single-threaded as in the browser, and the
// opening book off (built with -DNO_BOOK and use_book=false). Two choices make it a pure function
// of the position, for reproducible matches: the hash keys of the transposition tables come from a
// fixed seed (Egaroucid seeds them from the clock), and both tables are cleared before each search
// (the browser keeps them from one move to the next).
//
// NBoard protocol (the part ZeroBoard's engine/protocols/nboard_client.py and the NBoard GUI use):
//   nboard V          -> "set myname NAME"
//   set depth N       accepted and ignored: LEVEL alone sets the search (level 5: 5 plies in the
//                     midgame, a perfect endgame search from 10 empties on)
//   set game GGF      the game so far (GGF: BO[8 <64 cells> <side>] then B[..]/W[..] moves)
//   move MV[/E/T]     one more move (PA: pass) on the current game
//   go                -> "=== MV/EVAL/SECONDS" (MV like F5, PA to pass; EVAL in discs for the mover)
//   ping N            -> "pong N" (every earlier command is done by then)
//   quit              ends the program
// Other NBoard commands (hint, learn, analyze, set contempt, ...) are ignored. Lines about bad
// input go to stderr; stdout carries only protocol answers.

#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

// Egaroucid's web sources are compiled by emscripten (wasm32) and MSVC, where uint64_t is
// `unsigned long long`; ai.hpp calls `max(1ULL, <uint64_t>)`, which has no match with std::max
// where uint64_t is `unsigned long` (LP64 Linux). This overload supplies it; with any other
// argument types std::max is the better match, so nothing else changes.
inline unsigned long long max(unsigned long long a, unsigned long b) {
    return a < b ? (unsigned long long)b : a;
}

#include "web/ai.hpp"

namespace zb {

constexpr int kCells = 64;

// ZeroBoard side of the bit layout: square (col, row), a1 = (0, 0), row 0 on top as in GGF.
// Egaroucid keeps a1 in bit 63 and h8 in bit 0.
inline int bit_of(int col, int row) { return 63 - (row * 8 + col); }

std::string square_name(int bit) {
    int sq = 63 - bit;
    std::string s;
    s += char('A' + sq % 8);
    s += char('1' + sq / 8);
    return s;
}

// -1: pass, -2: not a move, else the bit of the square
int parse_square(const std::string &text) {
    std::string t;
    for (char c : text) t += (char)std::tolower((unsigned char)c);
    if (t == "pa" || t == "pass" || t == "ps") return -1;
    if (t.size() != 2 || t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8') return -2;
    return bit_of(t[0] - 'a', t[1] - '1');
}

struct Position {
    uint64_t discs[2] = {0, 0};  // [0] black, [1] white
    int to_move = 0;             // 0 black, 1 white

    static Position standard() {
        Position p;
        p.discs[1] = (1ULL << bit_of(3, 3)) | (1ULL << bit_of(4, 4));  // d4 e5 white
        p.discs[0] = (1ULL << bit_of(4, 3)) | (1ULL << bit_of(3, 4));  // e4 d5 black
        return p;
    }

    Board board() const {
        Board b;
        b.player = discs[to_move];
        b.opponent = discs[1 - to_move];
        return b;
    }

    uint64_t legal() const { return board().get_legal(); }

    // Plays `bit` (-1: pass) for `color` (-1: the side to move); a side that must pass and is
    // named again after its opponent's move gets its pass implied. False if illegal.
    bool play(int bit, int color, std::string *why) {
        if (color >= 0 && color != to_move) {
            if (legal() != 0) {
                *why = std::string(to_move == 0 ? "black" : "white") + " has moves, yet the record skips its turn";
                return false;
            }
            to_move ^= 1;  // an implied pass
        }
        uint64_t moves = legal();
        if (bit == -1) {
            if (moves != 0) {
                *why = "a pass while there are legal moves";
                return false;
            }
            to_move ^= 1;
            return true;
        }
        if (color < 0 && moves == 0) {  // a bare `move` for the opponent of a side that must pass
            Position other = *this;
            other.to_move ^= 1;
            if (other.legal() & (1ULL << bit)) {
                *this = other;
                moves = legal();
            }
        }
        if (!(moves & (1ULL << bit))) {
            *why = square_name(bit) + " is not legal here";
            return false;
        }
        Board b = board();
        Flip flip;
        calc_flip(&flip, &b, (uint_fast8_t)bit);
        b.move_board(&flip);  // b now has the opponent to move
        discs[to_move] = b.opponent;
        discs[1 - to_move] = b.player;
        to_move ^= 1;
        return true;
    }
};

// The properties NAME[VALUE] of a GGF record, in order.
bool parse_ggf(const std::string &text, Position *out, std::string *why) {
    Position pos = Position::standard();
    size_t i = 0;
    bool have_board = false;
    while (true) {
        size_t open = text.find('[', i);
        if (open == std::string::npos) break;
        size_t name_start = open;
        while (name_start > i && std::isupper((unsigned char)text[name_start - 1])) --name_start;
        std::string name = text.substr(name_start, open - name_start);
        size_t close = text.find(']', open);
        if (close == std::string::npos) {
            *why = "an unterminated property " + name;
            return false;
        }
        std::string value = text.substr(open + 1, close - open - 1);
        i = close + 1;
        if (name == "TY") {
            std::string t = value;
            while (!t.empty() && std::isspace((unsigned char)t.back())) t.pop_back();
            if (t != "8") {
                *why = "only 8x8 othello is played (TY[" + value + "])";
                return false;
            }
        } else if (name == "BO") {
            std::istringstream in(value);
            std::string size, rest, token;
            in >> size;
            while (in >> token) rest += token;
            if (size != "8" || rest.size() != kCells + 1) {
                *why = "a BO[] that is not an 8x8 board and a side to move";
                return false;
            }
            Position p;
            for (int sq = 0; sq < kCells; ++sq) {
                char c = rest[sq];
                uint64_t bit = 1ULL << (63 - sq);
                if (c == '*' || c == 'x' || c == 'X' || c == '#') p.discs[0] |= bit;
                else if (c == 'O' || c == 'o') p.discs[1] |= bit;
                else if (c != '-' && c != '.') {
                    *why = std::string("a BO[] cell '") + c + "'";
                    return false;
                }
            }
            char side = rest[kCells];
            p.to_move = (side == 'O' || side == 'o') ? 1 : 0;
            pos = p;
            have_board = true;
        } else if (name == "B" || name == "W") {
            std::string mv = value.substr(0, value.find('/'));
            while (!mv.empty() && std::isspace((unsigned char)mv.back())) mv.pop_back();
            while (!mv.empty() && std::isspace((unsigned char)mv.front())) mv.erase(0, 1);
            int bit = parse_square(mv);
            if (bit == -2) {
                *why = "the move " + name + "[" + value + "]";
                return false;
            }
            if (!pos.play(bit, name == "B" ? 0 : 1, why)) {
                *why = name + "[" + value + "]: " + *why;
                return false;
            }
        }
    }
    if (!have_board) {
        *why = "no BO[] property";
        return false;
    }
    *out = pos;
    return true;
}

void init_engine(unsigned seed) {
    raw_myrandom.seed(seed);  // before board_init(), which draws the hash keys
    board_init();
    mobility_init();
    stability_init();
    parent_transpose_table.first_init();
    child_transpose_table.first_init();
    evaluate_init();
}

std::string format_eval(int value) {
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(2);
    s << (double)value;
    return s.str();
}

std::string think(const Position &pos, int level) {
    Board b = pos.board();
    if (b.get_legal() == 0) return "PA";
    parent_transpose_table.init();
    child_transpose_table.init();
    auto start = std::chrono::steady_clock::now();
    Search_result r = ai(b, level, false, false, false);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (r.policy < 0 || r.policy >= kCells || !(b.get_legal() & (1ULL << r.policy))) {
        std::cerr << "egaroucid returned no legal move (" << (int)r.policy << ")" << std::endl;
        uint64_t legal = b.get_legal();
        return square_name(63 - __builtin_clzll(legal)) + "/0.00/0.00";
    }
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(2);
    s << square_name(r.policy) << "/" << format_eval(r.value) << "/" << secs;
    return s.str();
}

int run(int level, unsigned seed) {
    init_engine(seed);
    Position pos = Position::standard();
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        if (cmd.empty()) continue;
        if (cmd == "quit") {
            break;
        } else if (cmd == "nboard") {
            std::cout << "set myname Egaroucid-web-level" << level << std::endl;
        } else if (cmd == "ping") {
            std::string n;
            std::getline(in, n);
            size_t a = n.find_first_not_of(" \t");
            std::cout << "pong" << (a == std::string::npos ? "" : " " + n.substr(a)) << std::endl;
        } else if (cmd == "set") {
            std::string what;
            in >> what;
            if (what == "game") {
                std::string rest;
                std::getline(in, rest);
                std::string why;
                Position p;
                if (parse_ggf(rest, &p, &why)) pos = p;
                else std::cerr << "set game ignored: " << why << std::endl;
            }
            // set depth / contempt / ...: the level alone sets the search
        } else if (cmd == "move") {
            std::string mv;
            in >> mv;
            mv = mv.substr(0, mv.find('/'));
            int bit = parse_square(mv);
            std::string why = "the move " + mv;
            if (bit == -2 || !pos.play(bit, -1, &why)) std::cerr << "move ignored: " << why << std::endl;
        } else if (cmd == "go") {
            std::cout << "=== " << think(pos, level) << std::endl;
        } else {
            std::cerr << "ignored: " << line << std::endl;
        }
    }
    return 0;
}

}  // namespace zb

int main(int argc, char **argv) {
    int level = 5;
    unsigned seed = 1;
    if (argc > 1) {
        char *end = nullptr;
        long v = std::strtol(argv[1], &end, 10);
        if (*end || v < 0 || v > 60) {
            std::cerr << "usage: " << argv[0] << " [LEVEL (0..60, default 5) [SEED (default 1)]]" << std::endl;
            return 2;
        }
        level = (int)v;
    }
    if (argc > 2) seed = (unsigned)std::strtoul(argv[2], nullptr, 10);
    return zb::run(level, seed);
}
