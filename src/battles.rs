//! Bradley–Terry ratings from a count table of pairwise battles.
//!
//! The input is a table of cells: one cell per (cluster, model a, model b,
//! outcome), holding the sum of the battles' weights (`w`) and the sum of
//! their squared weights (`w2`). The fit, the model-based covariance (the
//! inverse of the information), the sandwich over battles and the
//! cluster-robust sandwich are all functions of these sums; no battle is
//! looked at twice.
//!
//! Two likelihoods:
//! * [`Ties::Half`]: P(a beats b) = σ(θa − θb), a tie counting as half a win
//!   on each side (FastChat, arena-rank, arena-hard-auto);
//! * [`Ties::Davidson`]: P(a) ∝ e^θa, P(b) ∝ e^θb, P(tie) ∝ ν·e^((θa+θb)/2)
//!   (Davidson 1970), with log ν a parameter.
//!
//! The ratings are identified by Σθ = 0 over the models that can be fitted.
//! The maximum-likelihood estimate exists exactly when the graph "i beat j
//! at least once, or i tied j" is strongly connected (Ford 1957). The fit is
//! made on the largest strongly connected component; every other model gets
//! a status (only wins against it: above; only losses: below; neither:
//! disconnected) and, where it met the component, a one-sided likelihood-ratio
//! bound holding the component's ratings at their estimates.

use crate::{Error, Result};

/// How ties enter the likelihood.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ties {
    /// A tie is half a win for each side.
    Half,
    /// Davidson's model with a tie parameter ν.
    Davidson,
}

/// Outcome codes of a cell.
pub const A_WINS: u8 = 0;
pub const B_WINS: u8 = 1;
pub const TIE: u8 = 2;

/// Status codes of a model in [`Fit::status`].
pub const FITTED: i8 = 0;
pub const ABOVE: i8 = 1;
pub const BELOW: i8 = -1;
pub const DISCONNECTED: i8 = 2;

/// The count table: parallel columns, one entry per cell.
#[derive(Debug, Clone, Default)]
pub struct Cells {
    pub a: Vec<u32>,
    pub b: Vec<u32>,
    pub outcome: Vec<u8>,
    pub cluster: Vec<u32>,
    pub w: Vec<f64>,
    pub w2: Vec<f64>,
}

/// What a fit returns. Matrices are row-major `p × p` with `p` the number of
/// fitted models (in model order) plus one for log ν under Davidson.
#[derive(Debug, Clone)]
pub struct Fit {
    /// θ of every model (Σ = 0 over the fitted ones); NaN for the others.
    pub theta: Vec<f64>,
    /// log ν (Davidson), NaN otherwise.
    pub log_nu: f64,
    pub status: Vec<i8>,
    /// The one-sided bound on θ of a model that is not fitted (NaN: none).
    pub bound: Vec<f64>,
    /// Indices of the fitted models, in order.
    pub fitted: Vec<usize>,
    pub cov_model: Vec<f64>,
    pub cov_sandwich: Vec<f64>,
    pub cov_cluster: Vec<f64>,
    pub n_clusters: usize,
    pub loglik: f64,
    pub iterations: usize,
    pub p: usize,
}

fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// ln σ(x), accurate for large |x|.
fn log_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// Local terms of one cell: the local parameter indices, the per-row score
/// vector of each outcome, the local information per unit weight, and the
/// log-likelihood per unit weight of each outcome.
struct Local {
    idx: [usize; 3],
    len: usize,
    score: [[f64; 3]; 3],
    info: [[f64; 3]; 3],
    logp: [f64; 3],
}

fn local(ties: Ties, ta: f64, tb: f64, log_nu: f64, ia: usize, ib: usize, ig: usize) -> Local {
    match ties {
        Ties::Half => {
            let d = ta - tb;
            let pa = sigmoid(d);
            let pb = sigmoid(-d);
            let (la, lb) = (log_sigmoid(d), log_sigmoid(-d));
            let ys = [1.0, 0.0, 0.5];
            let mut score = [[0.0; 3]; 3];
            for (k, y) in ys.iter().enumerate() {
                score[k][0] = y - pa;
                score[k][1] = -(y - pa);
            }
            let v = pa * pb;
            Local {
                idx: [ia, ib, 0],
                len: 2,
                score,
                info: [[v, -v, 0.0], [-v, v, 0.0], [0.0; 3]],
                logp: [la, lb, 0.5 * (la + lb)],
            }
        }
        Ties::Davidson => {
            let lt = log_nu + 0.5 * (ta + tb);
            let m = ta.max(tb).max(lt);
            let (ea, eb, et) = ((ta - m).exp(), (tb - m).exp(), (lt - m).exp());
            let s = ea + eb + et;
            let lse = m + s.ln();
            let p = [ea / s, eb / s, et / s];
            let f = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 1.0]];
            let mut mu = [0.0; 3];
            for k in 0..3 {
                for j in 0..3 {
                    mu[j] += p[k] * f[k][j];
                }
            }
            let mut score = [[0.0; 3]; 3];
            let mut info = [[0.0; 3]; 3];
            for k in 0..3 {
                for j in 0..3 {
                    score[k][j] = f[k][j] - mu[j];
                }
            }
            for r in 0..3 {
                for c in 0..3 {
                    let mut e = 0.0;
                    for k in 0..3 {
                        e += p[k] * f[k][r] * f[k][c];
                    }
                    info[r][c] = e - mu[r] * mu[c];
                }
            }
            Local {
                idx: [ia, ib, ig],
                len: 3,
                score,
                info,
                logp: [ta - lse, tb - lse, lt - lse],
            }
        }
    }
}

/// Cholesky factor (lower, row-major) of a symmetric positive-definite matrix.
fn cholesky(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= l[i * n + k] * l[j * n + k];
            }
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    return None;
                }
                l[i * n + i] = s.sqrt();
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    Some(l)
}

fn chol_solve(l: &[f64], n: usize, b: &mut [f64]) {
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= l[i * n + k] * b[k];
        }
        b[i] = s / l[i * n + i];
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for k in i + 1..n {
            s -= l[k * n + i] * b[k];
        }
        b[i] = s / l[i * n + i];
    }
}

fn chol_inverse(l: &[f64], n: usize) -> Vec<f64> {
    let mut inv = vec![0.0; n * n];
    let mut col = vec![0.0; n];
    for j in 0..n {
        col.iter_mut().for_each(|x| *x = 0.0);
        col[j] = 1.0;
        chol_solve(l, n, &mut col);
        for i in 0..n {
            inv[i * n + j] = col[i];
        }
    }
    inv
}

fn matmul(a: &[f64], b: &[f64], n: usize) -> Vec<f64> {
    let mut c = vec![0.0; n * n];
    for i in 0..n {
        for k in 0..n {
            let x = a[i * n + k];
            if x != 0.0 {
                for j in 0..n {
                    c[i * n + j] += x * b[k * n + j];
                }
            }
        }
    }
    c
}

/// Strongly connected components (Tarjan, iterative); component id per node.
fn scc(n: usize, adj: &[Vec<usize>]) -> Vec<usize> {
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on = vec![false; n];
    let mut comp = vec![usize::MAX; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut ncomp = 0;
    for s in 0..n {
        if index[s] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(s, 0)];
        index[s] = next;
        low[s] = next;
        next += 1;
        stack.push(s);
        on[s] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            if *i < adj[v].len() {
                let w = adj[v][*i];
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on[w] = true;
                    call.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    loop {
                        let w = stack.pop().unwrap();
                        on[w] = false;
                        comp[w] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    comp
}

fn reach(n: usize, adj: &[Vec<usize>], from: &[bool]) -> Vec<bool> {
    let mut seen = from.to_vec();
    let mut todo: Vec<usize> = (0..n).filter(|&i| from[i]).collect();
    while let Some(v) = todo.pop() {
        for &w in &adj[v] {
            if !seen[w] {
                seen[w] = true;
                todo.push(w);
            }
        }
    }
    seen
}

fn check(cells: &Cells, n: usize) -> Result<()> {
    let m = cells.a.len();
    if [
        cells.b.len(),
        cells.outcome.len(),
        cells.cluster.len(),
        cells.w.len(),
        cells.w2.len(),
    ]
    .iter()
    .any(|&l| l != m)
    {
        return Err(Error::input("the count table's columns differ in length"));
    }
    for k in 0..m {
        let (a, b) = (cells.a[k] as usize, cells.b[k] as usize);
        if a >= n || b >= n {
            return Err(Error::input(format!(
                "cell {k}: a model index is out of range"
            )));
        }
        if a == b {
            return Err(Error::input(format!("cell {k}: a model plays itself")));
        }
        if cells.outcome[k] > TIE {
            return Err(Error::input(format!(
                "cell {k}: outcome code {} (0, 1 or 2)",
                cells.outcome[k]
            )));
        }
        let (w, w2) = (cells.w[k], cells.w2[k]);
        if !(w.is_finite() && w2.is_finite() && w >= 0.0 && w2 >= 0.0) {
            return Err(Error::input(format!(
                "cell {k}: weights must be finite and non-negative"
            )));
        }
    }
    Ok(())
}

/// Fit the model on `cells` among `n` models. `anchor`: the model whose
/// component is fitted when components tie for size. `ridge`: added to the
/// information's diagonal for the covariances (arena-rank's `hessian_reg`
/// convention; 0: the constrained inverse). `crit`: the drop in
/// log-likelihood defining the one-sided bounds (z²/2).
pub fn fit(
    cells: &Cells,
    n: usize,
    ties: Ties,
    ridge: f64,
    crit: f64,
    anchor: Option<usize>,
) -> Result<Fit> {
    check(cells, n)?;
    fit_from(cells, n, ties, ridge, crit, anchor, None)
}

/// [`fit`] on a checked table, Newton starting from `start` (θ of every
/// model, NaN where unknown, and log ν) instead of zero.
fn fit_from(
    cells: &Cells,
    n: usize,
    ties: Ties,
    ridge: f64,
    crit: f64,
    anchor: Option<usize>,
    start: Option<(&[f64], f64)>,
) -> Result<Fit> {
    if !(ridge.is_finite() && ridge >= 0.0) {
        return Err(Error::input("ridge must be finite and non-negative"));
    }
    // the "beat or tied" graph
    let mut adj = vec![Vec::new(); n];
    let mut met = vec![false; n];
    for k in 0..cells.a.len() {
        if cells.w[k] <= 0.0 {
            continue;
        }
        let (a, b) = (cells.a[k] as usize, cells.b[k] as usize);
        met[a] = true;
        met[b] = true;
        match cells.outcome[k] {
            A_WINS => adj[a].push(b),
            B_WINS => adj[b].push(a),
            _ => {
                adj[a].push(b);
                adj[b].push(a);
            }
        }
    }
    for v in adj.iter_mut() {
        v.sort_unstable();
        v.dedup();
    }
    let comp = scc(n, &adj);
    let ncomp = comp.iter().copied().max().map_or(0, |c| c + 1);
    let mut size = vec![0usize; ncomp];
    for i in 0..n {
        if met[i] {
            size[comp[i]] += 1;
        }
    }
    let best = size.iter().copied().max().unwrap_or(0);
    if best < 2 {
        return Err(Error::input(
            "no two models can be rated: every model has only wins or only losses against the others (the \
             maximum-likelihood ratings do not exist)",
        ));
    }
    let main = match anchor {
        Some(x) if x < n && size[comp[x]] == best => comp[x],
        _ => (0..n)
            .find(|&i| size[comp[i]] == best)
            .map(|i| comp[i])
            .unwrap(),
    };
    let fitted: Vec<usize> = (0..n).filter(|&i| comp[i] == main).collect();
    let mut pos = vec![usize::MAX; n];
    for (j, &i) in fitted.iter().enumerate() {
        pos[i] = j;
    }
    let k = fitted.len();
    let dav = ties == Ties::Davidson;
    let p = k + usize::from(dav);
    let ig = k;
    // the cells among fitted models
    let use_cell: Vec<usize> = (0..cells.a.len())
        .filter(|&c| {
            pos[cells.a[c] as usize] != usize::MAX
                && pos[cells.b[c] as usize] != usize::MAX
                && cells.w[c] > 0.0
        })
        .collect();
    let mut log_nu = f64::NAN;
    if dav {
        let (mut t, mut all) = (0.0, 0.0);
        for &c in &use_cell {
            all += cells.w[c];
            if cells.outcome[c] == TIE {
                t += cells.w[c];
            }
        }
        if t <= 0.0 {
            return Err(Error::input(
                "Davidson's tie model needs at least one tie (its ν estimate is 0); use ties=half",
            ));
        }
        if t >= all {
            return Err(Error::input(
                "every battle is a tie: Davidson's ν has no finite estimate",
            ));
        }
        let f = t / all;
        log_nu = (2.0 * f / (1.0 - f)).ln();
    }
    let mut par = vec![0.0; p];
    if dav {
        par[ig] = log_nu;
    }
    if let Some((th, lnu0)) = start {
        for (j, &i) in fitted.iter().enumerate() {
            if th[i].is_finite() {
                par[j] = th[i];
            }
        }
        let mean = par[..k].iter().sum::<f64>() / k as f64;
        par[..k].iter_mut().for_each(|x| *x -= mean);
        if dav && lnu0.is_finite() {
            par[ig] = lnu0;
        }
    }
    // v: the unit vector of the constraint direction (θ part)
    let vnorm = 1.0 / (k as f64).sqrt();
    let eval = |par: &[f64], want: bool| -> (f64, Vec<f64>, Vec<f64>) {
        let lnu = if dav { par[ig] } else { 0.0 };
        let mut ll = 0.0;
        let mut g = vec![0.0; if want { p } else { 0 }];
        let mut h = vec![0.0; if want { p * p } else { 0 }];
        for &c in &use_cell {
            let (ia, ib) = (pos[cells.a[c] as usize], pos[cells.b[c] as usize]);
            let loc = local(ties, par[ia], par[ib], lnu, ia, ib, ig);
            let o = cells.outcome[c] as usize;
            let w = cells.w[c];
            ll += w * loc.logp[o];
            if want {
                for r in 0..loc.len {
                    g[loc.idx[r]] += w * loc.score[o][r];
                    for s in 0..loc.len {
                        h[loc.idx[r] * p + loc.idx[s]] += w * loc.info[r][s];
                    }
                }
            }
        }
        (ll, g, h)
    };
    let constrained = |h: &[f64]| -> Vec<f64> {
        let mut a = h.to_vec();
        for r in 0..k {
            for s in 0..k {
                a[r * p + s] += vnorm * vnorm;
            }
        }
        a
    };
    let mut iterations = 0;
    let (mut ll, mut g, mut h) = eval(&par, true);
    let scale = use_cell.iter().map(|&c| cells.w[c]).sum::<f64>().max(1.0);
    loop {
        let gmax = g.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        if gmax <= 1e-13 * scale || iterations >= 500 {
            break;
        }
        let a = constrained(&h);
        let l = cholesky(&a, p)
            .ok_or_else(|| Error::Internal("the information matrix is singular".into()))?;
        let mut step = g.clone();
        chol_solve(&l, p, &mut step);
        let mut t = 1.0;
        let mut moved = false;
        for _ in 0..60 {
            let trial: Vec<f64> = par.iter().zip(&step).map(|(x, d)| x + t * d).collect();
            let (ll2, _, _) = eval(&trial, false);
            if ll2 >= ll - 1e-12 * ll.abs().max(1.0) {
                par = trial;
                moved = true;
                break;
            }
            t *= 0.5;
        }
        iterations += 1;
        let smax = step.iter().fold(0.0f64, |m, x| m.max(x.abs())) * t;
        let r = eval(&par, true);
        ll = r.0;
        g = r.1;
        h = r.2;
        if !moved || smax < 1e-15 {
            break;
        }
    }
    // re-centre (rounding)
    let mean = par[..k].iter().sum::<f64>() / k as f64;
    par[..k].iter_mut().for_each(|x| *x -= mean);
    let (ll, _, h) = eval(&par, true);
    // meats
    let lnu = if dav { par[ig] } else { 0.0 };
    let mut meat_rows = vec![0.0; p * p];
    let mut sums: std::collections::BTreeMap<u32, Vec<f64>> = std::collections::BTreeMap::new();
    for &c in &use_cell {
        let (ia, ib) = (pos[cells.a[c] as usize], pos[cells.b[c] as usize]);
        let loc = local(ties, par[ia], par[ib], lnu, ia, ib, ig);
        let o = cells.outcome[c] as usize;
        let sc = loc.score[o];
        for r in 0..loc.len {
            for s in 0..loc.len {
                meat_rows[loc.idx[r] * p + loc.idx[s]] += cells.w2[c] * sc[r] * sc[s];
            }
        }
        let e = sums.entry(cells.cluster[c]).or_insert_with(|| vec![0.0; p]);
        for r in 0..loc.len {
            e[loc.idx[r]] += cells.w[c] * sc[r];
        }
    }
    let n_clusters = sums.len();
    let mut meat_cl = vec![0.0; p * p];
    for s in sums.values() {
        for r in 0..p {
            if s[r] != 0.0 {
                for q in 0..p {
                    meat_cl[r * p + q] += s[r] * s[q];
                }
            }
        }
    }
    if n_clusters > 1 {
        let f = n_clusters as f64 / (n_clusters as f64 - 1.0);
        meat_cl.iter_mut().for_each(|x| *x *= f);
    }
    // bread
    let bread = if ridge > 0.0 {
        let mut a = h.clone();
        for r in 0..p {
            a[r * p + r] += ridge;
        }
        let l = cholesky(&a, p)
            .ok_or_else(|| Error::Internal("the information matrix is singular".into()))?;
        chol_inverse(&l, p)
    } else {
        let a = constrained(&h);
        let l = cholesky(&a, p)
            .ok_or_else(|| Error::Internal("the information matrix is singular".into()))?;
        let mut inv = chol_inverse(&l, p);
        for r in 0..k {
            for s in 0..k {
                inv[r * p + s] -= vnorm * vnorm;
            }
        }
        inv
    };
    // With a ridge the bread's null direction (1 over the ratings) is scaled by 1/ridge, and the meat's
    // rounding along it (mathematically 0: scores sum to 0 over a battle's two models) comes back scaled
    // by 1/ridge²; the projection onto Σθ = 0 removes it (it changes nothing else: the meat annihilates 1).
    let project = |c: Vec<f64>| -> Vec<f64> {
        if ridge == 0.0 {
            return c;
        }
        let kf = k as f64;
        let mut row = vec![0.0; p];
        let mut col = vec![0.0; p];
        for r in 0..p {
            for q in 0..k {
                row[r] += c[r * p + q] / kf;
                col[r] += c[q * p + r] / kf;
            }
        }
        let all = row.iter().take(k).sum::<f64>() / kf;
        let mut out = c;
        for r in 0..p {
            for q in 0..p {
                let mut v = out[r * p + q];
                if q < k {
                    v -= row[r];
                }
                if r < k {
                    v -= col[q];
                }
                if r < k && q < k {
                    v += all;
                }
                out[r * p + q] = v;
            }
        }
        out
    };
    let sandwich = |meat: &[f64]| project(matmul(&matmul(&bread, meat, p), &bread, p));
    let cov_model = if ridge > 0.0 {
        sandwich(&h)
    } else {
        bread.clone()
    };
    let cov_sandwich = sandwich(&meat_rows);
    let cov_cluster = sandwich(&meat_cl);
    // the others: status and one-sided bounds
    let in_main: Vec<bool> = (0..n).map(|i| pos[i] != usize::MAX).collect();
    let from_main = reach(n, &adj, &in_main);
    let mut radj = vec![Vec::new(); n];
    for (v, ws) in adj.iter().enumerate() {
        for &w in ws {
            radj[w].push(v);
        }
    }
    let to_main = reach(n, &radj, &in_main);
    let mut theta = vec![f64::NAN; n];
    let mut status = vec![FITTED; n];
    let mut bound = vec![f64::NAN; n];
    for i in 0..n {
        if in_main[i] {
            theta[i] = par[pos[i]];
            continue;
        }
        status[i] = if to_main[i] && !from_main[i] {
            ABOVE
        } else if from_main[i] && !to_main[i] {
            BELOW
        } else {
            DISCONNECTED
        };
        if status[i] == DISCONNECTED {
            continue;
        }
        // i's battles with the fitted models: (θj, weight, i is side a)
        let mut opp = Vec::new();
        for c in 0..cells.a.len() {
            let (a, b) = (cells.a[c] as usize, cells.b[c] as usize);
            if cells.w[c] <= 0.0 {
                continue;
            }
            if a == i && in_main[b] {
                opp.push((par[pos[b]], cells.w[c], true, cells.outcome[c]));
            } else if b == i && in_main[a] {
                opp.push((par[pos[a]], cells.w[c], false, cells.outcome[c]));
            }
        }
        if opp.is_empty() {
            continue;
        }
        let ll_at = |x: f64| -> f64 {
            opp.iter()
                .map(|&(tj, w, i_is_a, o)| {
                    let loc = if i_is_a {
                        local(ties, x, tj, lnu, 0, 1, 2)
                    } else {
                        local(ties, tj, x, lnu, 0, 1, 2)
                    };
                    w * loc.logp[o as usize]
                })
                .sum()
        };
        // ℓ rises to 0 as x → +∞ (above) or x → −∞ (below); in u = dir·x it rises: find ℓ = −crit
        let dir = if status[i] == ABOVE { 1.0 } else { -1.0 };
        let f = |u: f64| ll_at(dir * u) + crit;
        let centre = opp
            .iter()
            .map(|o| dir * o.0)
            .fold(f64::NEG_INFINITY, f64::max);
        let (mut lo, mut hi) = (centre - 1.0, centre + 1.0);
        while f(lo) >= 0.0 && lo > -1e6 {
            lo = centre - 2.0 * (centre - lo);
        }
        while f(hi) < 0.0 && hi < 1e6 {
            hi = centre + 2.0 * (hi - centre);
        }
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if f(mid) < 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo *= dir;
        hi *= dir;
        bound[i] = 0.5 * (lo + hi);
    }
    Ok(Fit {
        theta,
        log_nu: if dav { par[ig] } else { f64::NAN },
        status,
        bound,
        fitted,
        cov_model,
        cov_sandwich,
        cov_cluster,
        n_clusters,
        loglik: ll,
        iterations,
        p,
    })
}

/// A covariate-adjusted fit (style control): per-battle rows, ties as half
/// a win, P(a beats b) = σ(θa − θb + xᵀβ) with `x` the battle's `k`
/// covariates (feature differences, a's side minus b's). Matrices are
/// `(n + k) × (n + k)`, θ first (Σθ = 0), then β.
#[derive(Debug, Clone)]
pub struct Adjusted {
    pub theta: Vec<f64>,
    pub beta: Vec<f64>,
    pub cov_model: Vec<f64>,
    pub cov_sandwich: Vec<f64>,
    pub cov_cluster: Vec<f64>,
    pub n_clusters: usize,
    pub loglik: f64,
    pub iterations: usize,
    pub p: usize,
}

/// Fit the covariate-adjusted Bradley–Terry model on battles (one entry per
/// battle: `a`, `b`, `outcome`, `cluster` code, weight `w`; `x` row-major
/// `len × k`) among `n` models, every model rated (the caller checks that
/// the battles connect them). Newton under Σθ = 0; the model-based
/// covariance is the constrained inverse of the information, the sandwich
/// meat Σ w² s sᵀ over battles, the cluster meat G/(G−1) Σ_c S_c S_cᵀ.
#[allow(clippy::too_many_arguments)]
#[allow(clippy::needless_range_loop)]
pub fn fit_adjusted(
    a: &[u32],
    b: &[u32],
    outcome: &[u8],
    cluster: &[u32],
    w: &[f64],
    x: &[f64],
    k: usize,
    n: usize,
) -> Result<Adjusted> {
    let len = a.len();
    if [b.len(), outcome.len(), cluster.len(), w.len()]
        .iter()
        .any(|&l| l != len)
        || x.len() != len * k
    {
        return Err(Error::input("the battles' columns differ in length"));
    }
    if n < 2 {
        return Err(Error::input("the adjusted fit needs at least two models"));
    }
    for r in 0..len {
        let (ia, ib) = (a[r] as usize, b[r] as usize);
        if ia >= n || ib >= n || ia == ib || outcome[r] > TIE {
            return Err(Error::input(format!(
                "battle {r}: a model index is out of range, a model plays itself or the outcome is not 0, 1 or 2"
            )));
        }
        if !(w[r].is_finite() && w[r] >= 0.0) {
            return Err(Error::input(format!(
                "battle {r}: weights must be finite and non-negative"
            )));
        }
        if x[r * k..(r + 1) * k].iter().any(|v| !v.is_finite()) {
            return Err(Error::input(format!(
                "battle {r}: a covariate is not a finite number"
            )));
        }
    }
    let p = n + k;
    let c = 1.0 / n as f64;
    // one battle's linear predictor, its outcome as a's score, and the design row's entries (θa, θb, β)
    let eta = |par: &[f64], r: usize| -> f64 {
        let xr = &x[r * k..(r + 1) * k];
        par[a[r] as usize] - par[b[r] as usize]
            + xr.iter().zip(&par[n..]).map(|(u, v)| u * v).sum::<f64>()
    };
    let y_of = |r: usize| -> f64 {
        match outcome[r] {
            A_WINS => 1.0,
            B_WINS => 0.0,
            _ => 0.5,
        }
    };
    // the design row of battle r as (index, value) pairs into `buf`
    let row = |r: usize, buf: &mut Vec<(usize, f64)>| {
        buf.clear();
        buf.push((a[r] as usize, 1.0));
        buf.push((b[r] as usize, -1.0));
        for j in 0..k {
            buf.push((n + j, x[r * k + j]));
        }
    };
    let eval = |par: &[f64], deriv: Option<(&mut [f64], &mut [f64])>| -> f64 {
        let mut ll = 0.0;
        let mut d = deriv;
        if let Some((g, h)) = d.as_mut() {
            g.fill(0.0);
            h.fill(0.0);
        }
        let mut buf = Vec::with_capacity(k + 2);
        for r in 0..len {
            if w[r] <= 0.0 {
                continue;
            }
            let e = eta(par, r);
            let y = y_of(r);
            ll += w[r] * (y * log_sigmoid(e) + (1.0 - y) * log_sigmoid(-e));
            if let Some((g, h)) = d.as_mut() {
                let pr = sigmoid(e);
                let (res, v) = (w[r] * (y - pr), w[r] * pr * (1.0 - pr));
                row(r, &mut buf);
                for &(i, xi) in &buf {
                    g[i] += res * xi;
                    for &(j, xj) in &buf {
                        h[i * p + j] += v * xi * xj;
                    }
                }
            }
        }
        ll
    };
    let mut par = vec![0.0; p];
    let mut g = vec![0.0; p];
    let mut h = vec![0.0; p * p];
    let mut trial = vec![0.0; p];
    let (mut g2, mut h2) = (vec![0.0; p], vec![0.0; p * p]);
    let mut ll = eval(&par, Some((&mut g, &mut h)));
    let scale = w.iter().sum::<f64>().max(1.0);
    let constrained = |h: &[f64]| -> Vec<f64> {
        let mut m = h.to_vec();
        for r in 0..n {
            for s in 0..n {
                m[r * p + s] += c;
            }
        }
        m
    };
    let mut iterations = 0;
    loop {
        let gmax = g.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if gmax <= 1e-12 * scale || iterations >= 200 {
            break;
        }
        let l = cholesky(&constrained(&h), p).ok_or_else(|| {
            Error::input(
                "the adjusted model's information is singular: a covariate is constant, or a copy of another, \
                 or the battles do not connect the models",
            )
        })?;
        let mut step = g.clone();
        chol_solve(&l, p, &mut step);
        let mut t = 1.0;
        let mut moved = false;
        for _ in 0..60 {
            for r in 0..p {
                trial[r] = par[r] + t * step[r];
            }
            let ll2 = eval(&trial, Some((&mut g2, &mut h2)));
            if ll2 >= ll - 1e-12 * ll.abs().max(1.0) {
                std::mem::swap(&mut par, &mut trial);
                std::mem::swap(&mut g, &mut g2);
                std::mem::swap(&mut h, &mut h2);
                ll = ll2;
                moved = true;
                break;
            }
            t *= 0.5;
        }
        iterations += 1;
        let smax = step.iter().fold(0.0f64, |m, v| m.max(v.abs())) * t;
        if !moved || smax < 1e-15 {
            break;
        }
    }
    let mean = par[..n].iter().sum::<f64>() / n as f64;
    par[..n].iter_mut().for_each(|v| *v -= mean);
    let ll = eval(&par, Some((&mut g, &mut h)));
    // bread: the inverse under Σθ = 0
    let l = cholesky(&constrained(&h), p)
        .ok_or_else(|| Error::input("the adjusted model's information is singular"))?;
    let mut bread = chol_inverse(&l, p);
    for r in 0..n {
        for s in 0..n {
            bread[r * p + s] -= c;
        }
    }
    // meats
    let mut meat_rows = vec![0.0; p * p];
    let mut sums: std::collections::BTreeMap<u32, Vec<f64>> = std::collections::BTreeMap::new();
    let mut buf = Vec::with_capacity(k + 2);
    for r in 0..len {
        if w[r] <= 0.0 {
            continue;
        }
        let res = y_of(r) - sigmoid(eta(&par, r));
        row(r, &mut buf);
        for &(i, xi) in &buf {
            for &(j, xj) in &buf {
                meat_rows[i * p + j] += w[r] * w[r] * res * res * xi * xj;
            }
        }
        let e = sums.entry(cluster[r]).or_insert_with(|| vec![0.0; p]);
        for &(i, xi) in &buf {
            e[i] += w[r] * res * xi;
        }
    }
    let n_clusters = sums.len();
    let mut meat_cl = vec![0.0; p * p];
    for sc in sums.values() {
        for r in 0..p {
            for q in 0..p {
                meat_cl[r * p + q] += sc[r] * sc[q];
            }
        }
    }
    if n_clusters > 1 {
        let f = n_clusters as f64 / (n_clusters as f64 - 1.0);
        meat_cl.iter_mut().for_each(|v| *v *= f);
    }
    let sandwich = |meat: &[f64]| matmul(&matmul(&bread, meat, p), &bread, p);
    Ok(Adjusted {
        theta: par[..n].to_vec(),
        beta: par[n..].to_vec(),
        cov_sandwich: sandwich(&meat_rows),
        cov_cluster: sandwich(&meat_cl),
        cov_model: bread,
        n_clusters,
        loglik: ll,
        iterations,
        p,
    })
}

/// The count table folded onto unordered pairs: slot `3q + o` of pair `q`
/// (models `lo < hi`) holds the weight of outcome `o` read from `lo`'s side
/// (`A_WINS`: `lo` won). What the bootstrap sums and refits.
struct Pairs {
    lo: Vec<u32>,
    hi: Vec<u32>,
    /// the slot of every cell of the table
    slot: Vec<u32>,
}

impl Pairs {
    fn new(cells: &Cells, n: usize) -> Self {
        let mut index = std::collections::HashMap::new();
        let (mut lo, mut hi) = (Vec::new(), Vec::new());
        let mut slot = Vec::with_capacity(cells.a.len());
        for c in 0..cells.a.len() {
            let (a, b) = (cells.a[c], cells.b[c]);
            let (l, h, o) = if a < b {
                (a, b, cells.outcome[c])
            } else {
                let o = match cells.outcome[c] {
                    A_WINS => B_WINS,
                    B_WINS => A_WINS,
                    t => t,
                };
                (b, a, o)
            };
            let q = *index.entry(l as usize * n + h as usize).or_insert_with(|| {
                lo.push(l);
                hi.push(h);
                lo.len() - 1
            });
            slot.push((3 * q) as u32 + u32::from(o));
        }
        Self { lo, hi, slot }
    }

    fn len(&self) -> usize {
        self.lo.len()
    }

    /// The summed table as cells (one per slot with a positive weight) for [`fit_from`].
    fn cells(&self, acc: &[f64]) -> Cells {
        let mut t = Cells::default();
        for (s, &w) in acc.iter().enumerate() {
            if w > 0.0 {
                t.a.push(self.lo[s / 3]);
                t.b.push(self.hi[s / 3]);
                t.outcome.push((s % 3) as u8);
                t.cluster.push(0);
                t.w.push(w);
                t.w2.push(w);
            }
        }
        t
    }
}

/// The work space of one thread's refits (allocated once per block).
struct Refit {
    par: Vec<f64>,
    trial: Vec<f64>,
    g: Vec<f64>,
    h: Vec<f64>,
    l: Vec<f64>,
    step: Vec<f64>,
    fwd: Vec<bool>,
    back: Vec<bool>,
}

impl Refit {
    fn new(p: usize, n: usize) -> Self {
        Self {
            par: vec![0.0; p],
            trial: vec![0.0; p],
            g: vec![0.0; p],
            h: vec![0.0; p * p],
            l: vec![0.0; p * p],
            step: vec![0.0; p],
            fwd: vec![false; n],
            back: vec![false; n],
        }
    }
}

/// Whether every model has a battle in `acc` and the "beat or tied" graph
/// of the summed table is strongly connected (then all `n` can be rated).
fn all_connected(pairs: &Pairs, acc: &[f64], ws: &mut Refit) -> bool {
    // reach from model 0 forwards (i → j: i beat or tied j) and backwards
    for (seen, fwd) in [(&mut ws.fwd, true), (&mut ws.back, false)] {
        seen.fill(false);
        seen[0] = true;
        let mut grew = true;
        while grew {
            grew = false;
            for q in 0..pairs.len() {
                let (l, h) = (pairs.lo[q] as usize, pairs.hi[q] as usize);
                let (wl, wh, t) = (acc[3 * q], acc[3 * q + 1], acc[3 * q + 2]);
                // edges l → h (l beat or tied h) and h → l
                let (lh, hl) = (wl + t > 0.0, wh + t > 0.0);
                let (lh, hl) = if fwd { (lh, hl) } else { (hl, lh) };
                if lh && seen[l] && !seen[h] {
                    seen[h] = true;
                    grew = true;
                }
                if hl && seen[h] && !seen[l] {
                    seen[l] = true;
                    grew = true;
                }
            }
        }
        if !seen.iter().all(|&s| s) {
            return false;
        }
    }
    true
}

/// The log-likelihood of the summed table at `par` and, with `deriv`, its
/// gradient and information (into `g`, `h`), the pair terms of [`local`].
fn pair_eval(
    pairs: &Pairs,
    acc: &[f64],
    ties: Ties,
    par: &[f64],
    n: usize,
    deriv: Option<(&mut [f64], &mut [f64])>,
) -> f64 {
    let p = par.len();
    let mut ll = 0.0;
    let mut d = deriv;
    if let Some((g, h)) = d.as_mut() {
        g.fill(0.0);
        h.fill(0.0);
    }
    for q in 0..pairs.len() {
        let (wl, wh, wt) = (acc[3 * q], acc[3 * q + 1], acc[3 * q + 2]);
        let tot = wl + wh + wt;
        if tot <= 0.0 {
            continue;
        }
        let (i, j) = (pairs.lo[q] as usize, pairs.hi[q] as usize);
        match ties {
            Ties::Half => {
                // one exp and one log per pair: ln σ(±x) and σ(x) from e^(−|x|)
                let x = par[i] - par[j];
                let e = (-x.abs()).exp();
                let lse = -e.ln_1p();
                let (li, lj) = if x >= 0.0 {
                    (lse, lse - x)
                } else {
                    (lse + x, lse)
                };
                let pi = if x >= 0.0 {
                    1.0 / (1.0 + e)
                } else {
                    e / (1.0 + e)
                };
                let s = wl + 0.5 * wt;
                ll += s * li + (tot - s) * lj;
                if let Some((g, h)) = d.as_mut() {
                    let r = s - tot * pi;
                    g[i] += r;
                    g[j] -= r;
                    let v = tot * pi * (1.0 - pi);
                    h[i * p + i] += v;
                    h[j * p + j] += v;
                    h[i * p + j] -= v;
                    h[j * p + i] -= v;
                }
            }
            Ties::Davidson => {
                let loc = local(ties, par[i], par[j], par[n], i, j, n);
                let w = [wl, wh, wt];
                ll += w.iter().zip(&loc.logp).map(|(x, l)| x * l).sum::<f64>();
                if let Some((g, h)) = d.as_mut() {
                    for r in 0..3 {
                        let gr: f64 = (0..3).map(|o| w[o] * loc.score[o][r]).sum();
                        g[loc.idx[r]] += gr;
                        for s in 0..3 {
                            h[loc.idx[r] * p + loc.idx[s]] += tot * loc.info[r][s];
                        }
                    }
                }
            }
        }
    }
    ll
}

/// In-place Cholesky factor (lower) of `a` into `l`; false if not positive definite.
fn cholesky_into(a: &[f64], l: &mut [f64], n: usize) -> bool {
    for i in 0..n {
        for j in 0..=i {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= l[i * n + k] * l[j * n + k];
            }
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    return false;
                }
                l[i * n + i] = s.sqrt();
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    true
}

/// The refit of a summed table on which every model can be rated: Newton
/// from `start` (θ of every model, then log ν under Davidson) under Σθ = 0,
/// with only what the percentiles need (no covariance). Stops after a full
/// Newton step shorter than 1e-6 (the error left is of the order of its
/// square). False where it does not converge (the caller falls back to
/// [`fit_from`]). On success `ws.par` holds θ (centred) and log ν.
fn refit(pairs: &Pairs, acc: &[f64], n: usize, ties: Ties, start: &[f64], ws: &mut Refit) -> bool {
    let p = ws.par.len();
    ws.par.copy_from_slice(start);
    let mean = ws.par[..n].iter().sum::<f64>() / n as f64;
    ws.par[..n].iter_mut().for_each(|x| *x -= mean);
    let c = 1.0 / n as f64;
    let mut ll = pair_eval(pairs, acc, ties, &ws.par, n, Some((&mut ws.g, &mut ws.h)));
    for _ in 0..100 {
        // H + (1/n)·11ᵀ on the θ block: the information under Σθ = 0
        for r in 0..n {
            for s in 0..n {
                ws.h[r * p + s] += c;
            }
        }
        if !cholesky_into(&ws.h, &mut ws.l, p) {
            return false;
        }
        ws.step.copy_from_slice(&ws.g);
        chol_solve(&ws.l, p, &mut ws.step);
        let smax = ws.step.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        if !smax.is_finite() {
            return false;
        }
        let mut t = 1.0;
        let mut moved = false;
        for _ in 0..60 {
            for r in 0..p {
                ws.trial[r] = ws.par[r] + t * ws.step[r];
            }
            let ll2 = pair_eval(pairs, acc, ties, &ws.trial, n, Some((&mut ws.g, &mut ws.h)));
            if ll2 >= ll - 1e-12 * ll.abs().max(1.0) {
                std::mem::swap(&mut ws.par, &mut ws.trial);
                ll = ll2;
                moved = true;
                break;
            }
            t *= 0.5;
        }
        if !moved {
            return false;
        }
        if t == 1.0 && smax < 1e-6 {
            let mean = ws.par[..n].iter().sum::<f64>() / n as f64;
            ws.par[..n].iter_mut().for_each(|x| *x -= mean);
            return true;
        }
    }
    false
}

/// The bootstrap of the ratings on a count table: resample `b` of `job`
/// draws from the stream `(seed, "boot", b, sub)` either whole clusters
/// (`by_cluster`: G indices uniform in `0..G`, exactly the clusters
/// `engine::index_block(G, ..)` gives, each drawn cluster adding its cells)
/// or battles (N indices uniform in `0..N`, N = Σ w with every cell's `w` a
/// whole number of unit-weight battles; battle `i` belongs to the first cell
/// whose cumulative count exceeds `i`, cells in table order). The drawn
/// tables are summed onto the pairs of models (one slot per pair and
/// outcome) and refitted by Newton from `full`'s solution, computing only
/// the ratings; a resample in which not every model can be rated is fitted
/// as [`fit`] would fit its summed table.
/// Returns `count × (n + 1)`: θ of every model (Σ = 0 over the models fitted
/// in that resample; NaN for a model the resample cannot rate) then log ν
/// (NaN under [`Ties::Half`]); a resample in which no two models can be rated
/// is all NaN.
pub fn bootstrap(
    cells: &Cells,
    n: usize,
    ties: Ties,
    full: &Fit,
    by_cluster: bool,
    job: &crate::engine::Job<'_>,
) -> Result<Vec<f64>> {
    use crate::rng::{Bounded, TAG_BOOTSTRAP};
    check(cells, n)?;
    let m = cells.a.len();
    let pairs = Pairs::new(cells, n);
    let slots = 3 * pairs.len();
    // clusters: each cluster's (slot, w), clusters in code order, cells in table order
    let mut cl_start = Vec::new();
    let mut cl_slot = Vec::new();
    let mut cl_w = Vec::new();
    // battles: battle i's slot (a table of N slots where N ≤ 2^25; else a search of the cumulative counts)
    let mut cum = Vec::new();
    let mut battle_slot: Vec<u32> = Vec::new();
    let units = if by_cluster {
        let g = cells
            .cluster
            .iter()
            .map(|&c| c as usize + 1)
            .max()
            .unwrap_or(0);
        let mut order: Vec<usize> = (0..m).collect();
        order.sort_by_key(|&c| cells.cluster[c]);
        cl_start = vec![0usize; g + 1];
        for &c in &order {
            cl_start[cells.cluster[c] as usize + 1] += 1;
            cl_slot.push(pairs.slot[c]);
            cl_w.push(cells.w[c]);
        }
        for k in 0..g {
            cl_start[k + 1] += cl_start[k];
        }
        g
    } else {
        cum.reserve(m);
        let mut tot = 0u64;
        for (k, &w) in cells.w.iter().enumerate() {
            if w.fract() != 0.0 || w > 4e9 {
                return Err(Error::input(format!(
                    "cell {k}: the battle bootstrap needs whole battle counts (unit weights); weighted battles \
                     can be resampled by cluster"
                )));
            }
            tot += w as u64;
            cum.push(tot);
        }
        if tot <= 1 << 25 {
            battle_slot.reserve(tot as usize);
            for (k, &w) in cells.w.iter().enumerate() {
                battle_slot.extend(std::iter::repeat_n(pairs.slot[k], w as usize));
            }
        }
        tot as usize
    };
    if units == 0 || units as u64 > 1 << 32 {
        return Err(Error::input(
            "the bootstrap needs between 1 and 2^32 battles or clusters",
        ));
    }
    let bnd = Bounded::new(units as u64);
    let from = crate::engine::Draws::of(job, TAG_BOOTSTRAP);
    let stride = n + 1;
    let dav = ties == Ties::Davidson;
    let p = n + usize::from(dav);
    // the start of every refit: the full fit's θ (all finite when every model was fitted) and log ν
    let mut start = full.theta.clone();
    if dav {
        start.push(full.log_nu);
    }
    let startable = n >= 2 && start.iter().all(|x| x.is_finite());
    crate::engine::par_blocks(job, stride, |first, chunk| {
        let mut draws = vec![0u32; if by_cluster { units } else { 0 }];
        let mut acc = vec![0.0; slots];
        let mut ws = Refit::new(p, n);
        for (r, row) in chunk.chunks_mut(stride).enumerate() {
            let b = first + r as u64;
            acc.fill(0.0);
            if by_cluster {
                draws.fill(0);
                from.counts(b, &bnd, units, &mut draws);
                for (c, &k) in draws.iter().enumerate() {
                    if k == 0 {
                        continue;
                    }
                    let kf = f64::from(k);
                    for e in cl_start[c]..cl_start[c + 1] {
                        acc[cl_slot[e] as usize] += kf * cl_w[e];
                    }
                }
            } else if !battle_slot.is_empty() {
                from.indices(b, &bnd, units, |i| acc[battle_slot[i] as usize] += 1.0);
            } else {
                from.indices(b, &bnd, units, |i| {
                    let c = cum.partition_point(|&x| x <= i as u64);
                    acc[pairs.slot[c] as usize] += 1.0;
                });
            }
            row.fill(f64::NAN);
            if startable
                && all_connected(&pairs, &acc, &mut ws)
                && refit(&pairs, &acc, n, ties, &start, &mut ws)
            {
                row[..n].copy_from_slice(&ws.par[..n]);
                if dav {
                    row[n] = ws.par[n];
                }
            } else if let Ok(f) = fit_from(
                &pairs.cells(&acc),
                n,
                ties,
                0.0,
                1.0,
                None,
                Some((&full.theta, full.log_nu)),
            ) {
                row[..n].copy_from_slice(&f.theta);
                row[n] = f.log_nu;
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(rows: &[(u32, u32, u8, u32, f64)]) -> Cells {
        let mut c = Cells::default();
        for &(a, b, o, g, w) in rows {
            c.a.push(a);
            c.b.push(b);
            c.outcome.push(o);
            c.cluster.push(g);
            c.w.push(w);
            c.w2.push(w);
        }
        c
    }

    #[test]
    fn bootstrap_of_singleton_clusters_is_the_battle_bootstrap_for_any_thread_count() {
        // 300 unit battles among 4 models, each its own cell and cluster: drawing clusters draws battles
        let mut rows = Vec::new();
        let mut x = 7u64;
        for k in 0..300u32 {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let a = (x >> 60) as u32 % 4;
            let b = (a + 1 + (x >> 40) as u32 % 3) % 4;
            let o = ((x >> 20) % 3) as u8;
            rows.push((a, b, o, k, 1.0));
        }
        let cells = table(&rows);
        let full = fit(&cells, 4, Ties::Half, 0.0, 1.0, None).unwrap();
        let progress = crate::engine::Progress::default();
        let run = |by_cluster: bool, threads: usize| {
            let job = crate::engine::Job::new(3, 600, threads, &progress);
            bootstrap(&cells, 4, Ties::Half, &full, by_cluster, &job).unwrap()
        };
        let rows1 = run(false, 1);
        assert_eq!(rows1.len(), 600 * 5);
        assert!(rows1
            .chunks(5)
            .all(|r| r[..4].iter().all(|t| t.is_finite())));
        for (p, q) in rows1.iter().zip(&run(false, 2)) {
            assert_eq!(p.to_bits(), q.to_bits());
        }
        for (p, q) in rows1.iter().zip(&run(true, 2)) {
            assert_eq!(p.to_bits(), q.to_bits());
        }
        // weighted cells cannot be resampled as battles
        let mut w = cells.clone();
        w.w[0] = 0.5;
        let job = crate::engine::Job::new(3, 10, 1, &progress);
        assert!(bootstrap(&w, 4, Ties::Half, &full, false, &job).is_err());
    }

    #[test]
    fn the_bootstrap_refit_equals_the_full_fit_of_the_same_table() {
        // random summed tables among 5 models (ties; both tie models): the refit from a nearby start equals `fit`
        let mut x = 11u64;
        let mut next = || {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            x >> 33
        };
        for ties in [Ties::Half, Ties::Davidson] {
            for _ in 0..20 {
                let mut rows = Vec::new();
                for a in 0..5u32 {
                    for b in 0..5u32 {
                        if a != b {
                            for o in [A_WINS, B_WINS, TIE] {
                                rows.push((a, b, o, 0, (1 + next() % 9) as f64));
                            }
                        }
                    }
                }
                let cells = table(&rows);
                let want = fit(&cells, 5, ties, 0.0, 1.0, None).unwrap();
                let pairs = Pairs::new(&cells, 5);
                let mut acc = vec![0.0; 3 * pairs.len()];
                for (c, &s) in pairs.slot.iter().enumerate() {
                    acc[s as usize] += cells.w[c];
                }
                let p = 5 + usize::from(ties == Ties::Davidson);
                let mut ws = Refit::new(p, 5);
                let mut start: Vec<f64> = (0..5).map(|i| 0.3 * i as f64).collect();
                if ties == Ties::Davidson {
                    start.push(-0.5);
                }
                assert!(all_connected(&pairs, &acc, &mut ws));
                assert!(refit(&pairs, &acc, 5, ties, &start, &mut ws));
                for i in 0..5 {
                    assert!((ws.par[i] - want.theta[i]).abs() < 1e-10, "{ties:?}");
                }
                if ties == Ties::Davidson {
                    assert!((ws.par[5] - want.log_nu).abs() < 1e-10);
                }
            }
        }
        // a model with only wins: not connected, the bootstrap falls back to `fit`
        let cells = table(&[
            (0, 1, A_WINS, 0, 2.0),
            (0, 1, B_WINS, 0, 1.0),
            (2, 0, A_WINS, 0, 1.0),
        ]);
        let pairs = Pairs::new(&cells, 3);
        let mut acc = vec![0.0; 3 * pairs.len()];
        for (c, &s) in pairs.slot.iter().enumerate() {
            acc[s as usize] += cells.w[c];
        }
        assert!(!all_connected(&pairs, &acc, &mut Refit::new(3, 3)));
    }

    #[test]
    fn the_adjusted_fit_without_covariates_is_the_plain_fit() {
        // battles one per row (unit weights, clusters): k = 0 gives the plain fit's θ and covariances
        let mut x = 5u64;
        let (mut a, mut b, mut o, mut g) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for _ in 0..400 {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let ia = (x >> 60) as u32 % 4;
            a.push(ia);
            b.push((ia + 1 + (x >> 40) as u32 % 3) % 4);
            o.push(((x >> 20) % 3) as u8);
            g.push(((x >> 10) % 17) as u32);
        }
        let w = vec![1.0; a.len()];
        let adj = fit_adjusted(&a, &b, &o, &g, &w, &[], 0, 4).unwrap();
        let cells = Cells {
            a: a.clone(),
            b: b.clone(),
            outcome: o.clone(),
            cluster: g.clone(),
            w: w.clone(),
            w2: w.clone(),
        };
        let plain = fit(&cells, 4, Ties::Half, 0.0, 1.0, None).unwrap();
        for i in 0..4 {
            assert!((adj.theta[i] - plain.theta[i]).abs() < 1e-10);
        }
        for (p, q) in [
            (&adj.cov_model, &plain.cov_model),
            (&adj.cov_sandwich, &plain.cov_sandwich),
            (&adj.cov_cluster, &plain.cov_cluster),
        ] {
            for (u, v) in p.iter().zip(q.iter()) {
                assert!((u - v).abs() < 1e-10 * (1.0 + v.abs()));
            }
        }
        assert!(fit_adjusted(&a, &b, &o, &g, &w, &[f64::NAN; 400], 1, 4).is_err());
    }

    #[test]
    fn two_models_have_the_closed_form() {
        // 7 wins, 3 losses: θa − θb = ln(7/3)
        let c = table(&[(0, 1, A_WINS, 0, 7.0), (0, 1, B_WINS, 1, 3.0)]);
        let f = fit(&c, 2, Ties::Half, 0.0, 1.92, None).unwrap();
        assert!((f.theta[0] - f.theta[1] - (7.0f64 / 3.0).ln()).abs() < 1e-12);
        assert!((f.theta[0] + f.theta[1]).abs() < 1e-14);
        // model-based variance of the difference: 1 / (n p (1 − p)) = 1 / (10 · 0.21)
        let var_d = f.cov_model[0] + f.cov_model[3] - 2.0 * f.cov_model[1];
        assert!((var_d - 1.0 / 2.1).abs() < 1e-10, "{var_d}");
        // the sandwich over battles equals it here (binary outcomes, the score's variance is p(1−p))
        let var_s = f.cov_sandwich[0] + f.cov_sandwich[3] - 2.0 * f.cov_sandwich[1];
        assert!((var_s - 1.0 / 2.1).abs() < 1e-10, "{var_s}");
    }

    #[test]
    fn ties_count_half_a_win() {
        let c = table(&[
            (0, 1, A_WINS, 0, 5.0),
            (0, 1, TIE, 0, 4.0),
            (0, 1, B_WINS, 0, 1.0),
        ]);
        let f = fit(&c, 2, Ties::Half, 0.0, 1.92, None).unwrap();
        assert!((f.theta[0] - f.theta[1] - (7.0f64 / 3.0).ln()).abs() < 1e-12);
    }

    #[test]
    fn davidson_two_models_closed_form() {
        // Davidson with two models: π̂a/π̂b = Wa/Wb, ν̂ = T / sqrt(Wa Wb)
        let c = table(&[
            (0, 1, A_WINS, 0, 6.0),
            (0, 1, TIE, 0, 3.0),
            (1, 0, A_WINS, 0, 2.0),
        ]);
        let f = fit(&c, 2, Ties::Davidson, 0.0, 1.92, None).unwrap();
        assert!((f.theta[0] - f.theta[1] - 3.0f64.ln()).abs() < 1e-10);
        assert!((f.log_nu - (3.0 / 12.0f64.sqrt()).ln()).abs() < 1e-10);
    }

    #[test]
    fn a_model_with_only_wins_is_not_fitted_and_gets_a_bound() {
        let c = table(&[
            (0, 1, A_WINS, 0, 3.0),
            (0, 1, B_WINS, 0, 2.0),
            (1, 2, TIE, 0, 2.0),
            (3, 0, A_WINS, 0, 4.0),
            (3, 2, A_WINS, 0, 1.0),
        ]);
        let f = fit(&c, 4, Ties::Half, 0.0, 1.92, None).unwrap();
        assert_eq!(f.status, vec![FITTED, FITTED, FITTED, ABOVE]);
        assert!(f.theta[3].is_nan());
        // the bound solves 4 ln σ(x − θ0) + ln σ(x − θ2) = −1.92
        let x = f.bound[3];
        let l = 4.0 * log_sigmoid(x - f.theta[0]) + log_sigmoid(x - f.theta[2]);
        assert!((l + 1.92).abs() < 1e-9);
        assert!(x < f.theta[0] + 1.0);
    }

    #[test]
    fn below_and_disconnected_models_get_their_status() {
        // 0, 1, 2 mixed; 3 only loses to 1; 4 and 5 only play each other (a tie)
        let c = table(&[
            (0, 1, A_WINS, 0, 2.0),
            (1, 2, A_WINS, 0, 2.0),
            (2, 0, A_WINS, 0, 2.0),
            (1, 3, A_WINS, 0, 3.0),
            (4, 5, TIE, 0, 1.0),
        ]);
        let f = fit(&c, 6, Ties::Half, 0.0, 1.92, None).unwrap();
        assert_eq!(
            f.status,
            vec![FITTED, FITTED, FITTED, BELOW, DISCONNECTED, DISCONNECTED]
        );
        // the upper bound of 3 solves 3 ln σ(θ1 − x) = −1.92
        let x = f.bound[3];
        assert!((3.0 * log_sigmoid(f.theta[1] - x) + 1.92).abs() < 1e-9);
        assert!(f.bound[4].is_nan() && f.theta[4].is_nan());
        // a cyclic triangle of equal counts: all ratings 0
        assert!(f.theta[..3].iter().all(|t| t.abs() < 1e-12));
    }

    #[test]
    fn with_a_ridge_the_covariances_sum_to_zero_over_the_ratings() {
        let rows: Vec<(u32, u32, u8, u32, f64)> = (0..40)
            .map(|i| {
                (
                    (i % 4) as u32,
                    ((i + 1 + i / 4) % 4) as u32,
                    [A_WINS, B_WINS, TIE][(i * 7 % 5) % 3],
                    0,
                    0.01,
                )
            })
            .filter(|r| r.0 != r.1)
            .collect();
        let c = table(&rows);
        let f = fit(&c, 4, Ties::Half, 1e-5, 1.92, None).unwrap();
        let p = f.p;
        for cov in [&f.cov_sandwich, &f.cov_model] {
            let scale = cov[0].abs();
            for r in 0..p {
                let s: f64 = (0..p).map(|q| cov[r * p + q]).sum();
                assert!(s.abs() < 1e-12 * scale, "{s}");
            }
        }
    }

    #[test]
    fn bad_tables_are_errors() {
        let c = table(&[(0, 0, A_WINS, 0, 1.0)]);
        assert!(fit(&c, 2, Ties::Half, 0.0, 1.92, None).is_err());
        let c = table(&[(0, 1, A_WINS, 0, 1.0)]);
        assert!(fit(&c, 2, Ties::Half, 0.0, 1.92, None).is_err());
        let c = table(&[(0, 1, A_WINS, 0, f64::NAN)]);
        assert!(fit(&c, 2, Ties::Half, 0.0, 1.92, None).is_err());
        let c = table(&[(0, 1, A_WINS, 0, 1.0), (1, 0, A_WINS, 0, 1.0)]);
        assert!(fit(&c, 2, Ties::Davidson, 0.0, 1.92, None).is_err());
    }

    #[test]
    fn cluster_sandwich_of_singletons_is_the_row_sandwich_times_g_over_g_minus_1() {
        let rows: Vec<(u32, u32, u8, u32, f64)> = (0..30)
            .map(|i| {
                (
                    (i % 3) as u32,
                    ((i + 1) % 3) as u32,
                    [A_WINS, B_WINS, TIE][(i * 7 % 5) % 3],
                    i as u32,
                    1.0,
                )
            })
            .collect();
        let c = table(&rows);
        let f = fit(&c, 3, Ties::Half, 0.0, 1.92, None).unwrap();
        for (x, y) in f.cov_cluster.iter().zip(&f.cov_sandwich) {
            assert!((x - y * 30.0 / 29.0).abs() < 1e-12 * (1.0 + y.abs()));
        }
    }
}
