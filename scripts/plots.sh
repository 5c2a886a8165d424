#!/usr/bin/env bash
# Draws the paper's Figures 2-6 from a reproduction's TSV tables, as SVG and PNG, with gnuplot.
# Usage: scripts/plots.sh runs/scifact    (writes runs/scifact/figures/)
set -euo pipefail
folder=${1:?usage: $0 REPRODUCTION_FOLDER}
tables="$folder/tables"
figures="$folder/figures"
mkdir -p "$figures"
command -v gnuplot > /dev/null || { echo "plots: gnuplot is missing (scripts/setup.sh installs it)" >&2; exit 3; }

plot() {  # plot NAME 'gnuplot commands' : one SVG and one PNG
  local name=$1 body=$2
  for format in svg png; do
    local terminal="svg size 800,500 dynamic background rgb 'white'"
    [ "$format" = png ] && terminal="pngcairo size 800,500"
    gnuplot -e "set terminal $terminal; set output '$figures/$name.$format'; set datafile separator '\t'; $body"
  done
}

# Figure 2: token length histograms of the abstracts and of the test claims.
plot figure2_token_lengths "
  set multiplot layout 1,2;
  set style fill solid 0.6; set xlabel 'tokens'; set ylabel 'count';
  set title 'Abstracts (title + text)'; bin=25;
  plot '$tables/token_lengths.tsv' using (strcol(1) eq 'document' ? bin*floor(\$2/bin)+bin/2.0 : 1/0):(1) skip 1 smooth frequency with boxes notitle;
  set title 'Test claims'; bin=2;
  plot '$tables/token_lengths.tsv' using (strcol(1) eq 'test' ? bin*floor(\$2/bin)+bin/2.0 : 1/0):(1) skip 1 smooth frequency with boxes notitle;
  unset multiplot"

# Figure 3: nDCG@10 and Recall@100 per system. The header row is skipped (not plotted as an
# empty group), titles are not "enhanced" text (where @ is a control character), and the system
# names are tilted so that long ones (hybrid_rerank, lexical_ranker) do not overlap.
plot figure3_retrieval "
  set style data histograms; set style histogram clustered gap 1; set style fill solid 0.7;
  set yrange [0:1.15]; set ytics 0,0.2,1; set ylabel 'score'; set key top left horizontal noenhanced;
  set xtics noenhanced rotate by -25; set bmargin 5;
  plot '$tables/table5.tsv' skip 1 using 2:xtic(1) title 'nDCG@10', '' skip 1 using 4 title 'Recall@100'"

# Figure 4: nDCG@k curves (table6.tsv transposed: a row per k, a column per system).
awk -F'\t' '{ for (c = 1; c <= NF; c++) cell[NR, c] = $c; if (NF > width) width = NF }
  END { for (c = 1; c <= width; c++) { line = (c == 1 ? "k" : cell[1, c]); sub(/ndcg@/, "", line);
          for (r = 2; r <= NR; r++) line = line "\t" cell[r, c]; print line } }' "$tables/table6.tsv" > "$figures/ndcg_at_k.tsv"
systems=$(($(wc -l < "$tables/table6.tsv")))
plot figure4_ndcg_at_k "
  set xlabel 'k'; set ylabel 'nDCG@k'; set key bottom right noenhanced; set logscale x; set xtics (5, 10, 20, 50);
  plot for [c=2:$systems] '$figures/ndcg_at_k.tsv' using 1:c with linespoints pt 7 title columnhead(c)"

# Figure 5: refusal rate against hallucination rate over the gate's thresholds; each point is
# labelled with its threshold on BM25's top-1 score.
plot figure5_refusal_hallucination "
  set title 'Each point: the gate answers when BM25 top-1 score >= the label' noenhanced;
  set xlabel 'refusal rate'; set ylabel 'hallucination rate (answered)'; set key off;
  plot '$tables/table8.tsv' skip 1 using 3:4 with linespoints pt 7, '' skip 1 using 3:4:(sprintf('%.0f', \$1)) with labels offset 1,1"

# Figure 6: runtime of each stage.
plot figure6_runtime "
  set style fill solid 0.7; set boxwidth 0.7; set ylabel 'seconds'; set xtics rotate by -30 noenhanced;
  plot '$tables/table9.tsv' skip 1 using 0:2:xtic(1) with boxes notitle"

# Beyond the paper: claim-level grounding's precision and recall of kept claims over τ_s (grounding)
# and τ_m (refusal_mean), train and dev, with the kept claims' conflict rate.
if [ -f "$tables/grounding_pr.tsv" ]; then
  plot grounding_pr "
    set xlabel 'recall of gold-supported claims'; set ylabel 'rate among kept claims'; set key top right;
    set xrange [0:1]; set yrange [0:1];
    row(s, m) = (strcol(1) eq s && strcol(2) eq m);
    plot for [s in 'train dev'] for [m in 'grounding refusal_mean'] '$tables/grounding_pr.tsv' skip 1 using (row(s, m) ? \$6 : 1/0):5 with linespoints title sprintf('%s %s precision', s, m) noenhanced, for [s in 'train dev'] '$tables/grounding_pr.tsv' skip 1 using ((strcol(1) eq s && strcol(2) eq 'grounding') ? \$6 : 1/0):7 with linespoints dt 2 title sprintf('%s grounding conflict rate', s) noenhanced"
fi

# Beyond the paper: every abstention strategy's risk–coverage curve on the same claims, and the
# oracle's floor (tables/abstention_curves.tsv: coverage, then a column per strategy).
if [ -f "$tables/abstention_curves.tsv" ]; then
  columns=$(head -1 "$tables/abstention_curves.tsv" | awk -F'\t' '{print NF}')
  plot abstention_risk_coverage "
    set xlabel 'coverage (share of claims answered)'; set ylabel 'risk (unsafe share of answered claims)';
    set key bottom right noenhanced; set xrange [0:1]; set yrange [0:1]; set grid;
    plot for [c=2:$((columns - 1))] '$tables/abstention_curves.tsv' using 1:c with lines lw 2 title columnhead(c),
         '' using 1:$columns with lines lw 2 dt 2 lc rgb 'gray50' title columnhead($columns)"
fi

echo "plots: figures 2-6 -> $figures"
