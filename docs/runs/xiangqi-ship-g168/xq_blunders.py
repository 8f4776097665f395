"""The AI's errors in xiangqi games against fairy-stockfish (an arena --games-out file): fairy-stockfish at depth 10
rates the position before and after each AI move; moves that lose more than 150 centipawns are listed (the first 4 a game).
Usage: python xq_blunders.py GAMES.jsonl  (needs /usr/games/fairy-stockfish)"""
import json, subprocess, sys, re
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from games import get_game
g = get_game("xiangqi")
sf = subprocess.Popen(["/usr/games/fairy-stockfish"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(x): sf.stdin.write(x + "\n")
send("uci"); send("setoption name UCI_Variant value xiangqi"); send("isready")
while sf.stdout.readline().strip() != "readyok": pass
def conv(m):  # our ranks 0-9 -> SF 1-10
    return m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1)
def evaluate(fen, moves, depth=10):
    send(f"position fen {fen}" + (" moves " + " ".join(conv(m) for m in moves) if moves else ""))
    send(f"go depth {depth}")
    score = None
    while True:
        line = sf.stdout.readline()
        m = re.search(r"score (cp|mate) (-?\d+)", line)
        if m:
            score = int(m.group(2)) if m.group(1) == "cp" else (10000 if int(m.group(2)) > 0 else -10000)
        if line.startswith("bestmove"):
            return score, line.split()[1]
BASE = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["result"] != "loss":
        continue
    start = r["start"]
    pre = start.split(" moves ")[1].split() if " moves " in start else []
    ai = 0 if r["a_first"] else 1
    moves = pre + r["moves"]
    st = g.state_from_text(start)
    out = []
    for i, m in enumerate(r["moves"]):
        if st.current_player == ai:
            ply = len(pre) + i
            before, best = evaluate(BASE, moves[:ply])
            after, reply = evaluate(BASE, moves[:ply + 1])
            drop = before + after  # before: for AI; after: for SF
            if drop > 150 and before > -1500:
                out.append(f"ply{ply} {m} (sf best {best}) {before}->{-after} reply {reply}")
        st = st.play(st.parse_action(m))
    print(r["game"], "AI", "red" if ai == 0 else "black", len(r["moves"]), "|", "; ".join(out[:4]), flush=True)
send("quit")
