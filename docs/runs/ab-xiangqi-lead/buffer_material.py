"""2026-11-27: a replay buffer's value targets by the mover's material balance (from the project root).

usage: python docs/runs/ab-xiangqi-lead/buffer_material.py RUN_DIR/buffer

For each band of material balance (the mover's pieces minus the opponent's, chariot 9, cannon
4.5, horse 4, advisor and elephant 2, soldier 1, read from the stored input planes), the number
of positions, the mean stored value target z (with value_q_weight 0.5: half the game's outcome,
half the search's value) and the shares of z above 0.5 and below -0.5. buffer-base-85-100.txt is
its output on runs/xmat/base/buffer at 18:20, generations 85-100."""
import numpy as np, glob, sys
VAL = np.array([0, 2, 2, 4, 9, 4.5, 1], np.float32)  # advisor, elephant, horse, chariot, cannon, soldier (planes 1..6; plane 0 general)
bal, z, ply = [], [], []
for f in sorted(glob.glob(sys.argv[1] + "/gen_*.npz")):
    d = np.load(f)
    p = d["planes"].astype(np.float32)
    mine = (p[:, 0:7].sum(axis=(2, 3)) * VAL).sum(1)
    theirs = (p[:, 7:14].sum(axis=(2, 3)) * VAL).sum(1)
    bal.append(mine - theirs); z.append(d["z"])
bal = np.concatenate(bal); z = np.concatenate(z)
print("samples", len(z))
for lo, hi in [(-99, -8), (-8, -5), (-5, -3), (-3, -1.5), (-1.5, -0.5), (-0.5, 0.5), (0.5, 1.5), (1.5, 3), (3, 5), (5, 8), (8, 99)]:
    m = (bal >= lo) & (bal < hi)
    print(f"balance [{lo:5}, {hi:5}): n {m.sum():6d}  mean z {z[m].mean():+.3f}  P(z>0.5) {np.mean(z[m] > 0.5):.2f}  P(z<-0.5) {np.mean(z[m] < -0.5):.2f}")
