package io.shardvault.common.erasure.internal;

/**
 * The matrices of the format, over {@link Gf256}. {@link #codingMatrix} is a line-by-line port of
 * Jerasure 2's {@code reed_sol_vandermonde_coding_matrix(k, m, 8)} (reed_sol.c): an extended
 * Vandermonde matrix of k + m rows, reduced by column operations until its top k rows are the
 * identity, then scaled so that row k and column 0 of the parity rows are all ones. The parity rows
 * are the coding matrix. The construction must not change: stored parity depends on it.
 *
 * <p>Matrices are row-major int arrays of GF(2^8) elements. Stateless and thread-safe.
 */
public final class ReedSolomonMatrices {
    private ReedSolomonMatrices() {
    }

    /** The m x k coding matrix: parity chunk i is the sum over j of {@code matrix[i*k+j]} times data chunk j. */
    public static int[] codingMatrix(int k, int m) {
        int[] dist = bigVandermondeDistributionMatrix(k + m, k);
        int[] coding = new int[m * k];
        System.arraycopy(dist, k * k, coding, 0, m * k);
        return coding;
    }

    /** reed_sol_extended_vandermonde_matrix(rows, cols, 8). */
    static int[] extendedVandermondeMatrix(int rows, int cols) {
        if (rows > 256 || cols > 256) {
            throw new IllegalArgumentException("GF(2^8) Vandermonde matrix needs rows, cols <= 256: " + rows + "x" + cols);
        }
        int[] vdm = new int[rows * cols];
        vdm[0] = 1;
        if (rows == 1) {
            return vdm;
        }
        vdm[(rows - 1) * cols + cols - 1] = 1;
        if (rows == 2) {
            return vdm;
        }
        for (int i = 1; i < rows - 1; i++) {
            int k = 1;
            for (int j = 0; j < cols; j++) {
                vdm[i * cols + j] = k;
                k = Gf256.multiply(k, i);
            }
        }
        return vdm;
    }

    /** reed_sol_big_vandermonde_distribution_matrix(rows, cols, 8). */
    static int[] bigVandermondeDistributionMatrix(int rows, int cols) {
        if (cols >= rows) {
            throw new IllegalArgumentException("need rows > cols: " + rows + "x" + cols);
        }
        int[] dist = extendedVandermondeMatrix(rows, cols);

        int sindex = 0;
        for (int i = 1; i < cols; i++) {
            sindex += cols;

            // Find a row j >= i whose element i is non-zero, and swap it into row i.
            int srindex = sindex + i;
            int j = i;
            while (j < rows && dist[srindex] == 0) {
                srindex += cols;
                j++;
            }
            if (j >= rows) {
                throw new IllegalStateException("cannot build the distribution matrix " + rows + "x" + cols);
            }
            if (j != i) {
                srindex -= i;
                for (int c = 0; c < cols; c++) {
                    int tmp = dist[srindex + c];
                    dist[srindex + c] = dist[sindex + c];
                    dist[sindex + c] = tmp;
                }
            }

            // Scale column i so that element (i, i) is 1.
            if (dist[sindex + i] != 1) {
                int tmp = Gf256.divide(1, dist[sindex + i]);
                srindex = i;
                for (int r = 0; r < rows; r++) {
                    dist[srindex] = Gf256.multiply(tmp, dist[srindex]);
                    srindex += cols;
                }
            }

            // Zero the rest of row i: column c -= e * column i, where e = element (i, c).
            for (int c = 0; c < cols; c++) {
                int tmp = dist[sindex + c];
                if (c != i && tmp != 0) {
                    srindex = c;
                    int siindex = i;
                    for (int r = 0; r < rows; r++) {
                        dist[srindex] = dist[srindex] ^ Gf256.multiply(tmp, dist[siindex]);
                        srindex += cols;
                        siindex += cols;
                    }
                }
            }
        }

        // Make row `cols` all ones: scale each column (below the identity) by 1 / element (cols, c).
        sindex = cols * cols;
        for (int c = 0; c < cols; c++) {
            int tmp = dist[sindex];
            if (tmp != 1) {
                tmp = Gf256.divide(1, tmp);
                int srindex = sindex;
                for (int r = cols; r < rows; r++) {
                    dist[srindex] = Gf256.multiply(tmp, dist[srindex]);
                    srindex += cols;
                }
            }
            sindex++;
        }

        // Make column 0 of every later row one: scale each row by the inverse of its first element.
        sindex = cols * (cols + 1);
        for (int r = cols + 1; r < rows; r++) {
            int tmp = dist[sindex];
            if (tmp != 1) {
                tmp = Gf256.divide(1, tmp);
                for (int c = 0; c < cols; c++) {
                    dist[sindex + c] = Gf256.multiply(dist[sindex + c], tmp);
                }
            }
            sindex += cols;
        }
        return dist;
    }

    /**
     * The k x k matrix that turns the given k survivors back into the k data chunks: the inverse of
     * the survivors' rows of the distribution matrix (identity on top, coding matrix below).
     */
    public static int[] decodingMatrix(int k, int[] coding, int[] survivors) {
        int[] a = new int[k * k];
        for (int r = 0; r < k; r++) {
            int s = survivors[r];
            if (s < k) {
                a[r * k + s] = 1;
            } else {
                System.arraycopy(coding, (s - k) * k, a, r * k, k);
            }
        }
        return invert(a, k);
    }

    /** Gauss–Jordan inverse of an n x n matrix; the input is not modified. */
    static int[] invert(int[] matrix, int n) {
        int[] a = matrix.clone();
        int[] inv = new int[n * n];
        for (int i = 0; i < n; i++) {
            inv[i * n + i] = 1;
        }
        for (int col = 0; col < n; col++) {
            int pivot = col;
            while (pivot < n && a[pivot * n + col] == 0) {
                pivot++;
            }
            if (pivot == n) {
                throw new IllegalStateException("singular matrix: the survivors do not determine the data");
            }
            if (pivot != col) {
                swapRows(a, n, pivot, col);
                swapRows(inv, n, pivot, col);
            }
            int scale = Gf256.inverse(a[col * n + col]);
            for (int c = 0; c < n; c++) {
                a[col * n + c] = Gf256.multiply(a[col * n + c], scale);
                inv[col * n + c] = Gf256.multiply(inv[col * n + c], scale);
            }
            for (int r = 0; r < n; r++) {
                int factor = a[r * n + col];
                if (r != col && factor != 0) {
                    for (int c = 0; c < n; c++) {
                        a[r * n + c] ^= Gf256.multiply(factor, a[col * n + c]);
                        inv[r * n + c] ^= Gf256.multiply(factor, inv[col * n + c]);
                    }
                }
            }
        }
        return inv;
    }

    private static void swapRows(int[] a, int n, int r1, int r2) {
        for (int c = 0; c < n; c++) {
            int tmp = a[r1 * n + c];
            a[r1 * n + c] = a[r2 * n + c];
            a[r2 * n + c] = tmp;
        }
    }

    /** Row vector times k x k matrix. */
    static int[] multiplyRow(int[] row, int rowOffset, int[] matrix, int k) {
        int[] out = new int[k];
        for (int i = 0; i < k; i++) {
            int coef = row[rowOffset + i];
            if (coef != 0) {
                for (int c = 0; c < k; c++) {
                    out[c] ^= Gf256.multiply(coef, matrix[i * k + c]);
                }
            }
        }
        return out;
    }
}
