import { Matrix } from 'ml-matrix';

const lam = (xi: number): number => (xi === 0 ? 0.125 : Math.tanh(xi / 2) / (4 * xi));

/**
 * Baseline for the benchmark only: VBLinLogit's vb_logit_fit_iter transcribed line by line onto
 * ml-matrix objects (as one would port the MATLAB), so every ξ step costs O(d²) matrix products and
 * allocates. Same maths and results as the flat-array `onlineVbLogitUpdate`.
 */
export class NaiveVbLogitIter {
  V: Matrix;
  invV: Matrix;
  w: Matrix;
  logdetV: number;

  constructor(readonly d: number) {
    this.V = Matrix.eye(d, d).div(d);
    this.invV = Matrix.eye(d, d).mul(d);
    this.w = Matrix.zeros(d, 1);
    this.logdetV = -d * Math.log(d);
  }

  update(xRow: Float64Array, offset: number, y: number): void {
    const xn = Matrix.columnVector(Array.from(xRow.subarray(offset, offset + this.d)));
    const Vx = this.V.mmul(xn);
    const VxVx = Vx.mmul(Vx.transpose());
    const c = xn.transpose().mmul(Vx).get(0, 0);
    const xx = xn.mmul(xn.transpose());
    const tw = this.invV.mmul(this.w).add(Matrix.mul(xn, 0.5 * y));
    let Vxi = Matrix.sub(this.V, Matrix.div(VxVx, 4 + c));
    let invVxi = Matrix.add(this.invV, Matrix.div(xx, 4));
    let logdetVxi = this.logdetV - Math.log(1 + c / 4);
    let w = Vxi.mmul(tw);
    let last = 0.5 * (logdetVxi + w.transpose().mmul(invVxi).mmul(w).get(0, 0)) - Math.log(2);
    for (let i = 0; i < 500; i++) {
      const xi = Math.sqrt(xn.transpose().mmul(Matrix.add(Vxi, w.mmul(w.transpose()))).mmul(xn).get(0, 0));
      const l = lam(xi);
      Vxi = Matrix.sub(this.V, Matrix.mul(VxVx, (2 * l) / (1 + 2 * l * c)));
      invVxi = Matrix.add(this.invV, Matrix.mul(xx, 2 * l));
      logdetVxi = this.logdetV - Math.log(1 + 2 * l * c);
      w = Vxi.mmul(tw);
      const bound = 0.5 * (logdetVxi + w.transpose().mmul(invVxi).mmul(w).get(0, 0) - xi) - Math.log(1 + Math.exp(-xi)) + l * xi * xi;
      if (Math.abs(last - bound) < Math.abs(1e-5 * bound)) break;
      last = bound;
    }
    this.V = Vxi;
    this.invV = invVxi;
    this.logdetV = logdetVxi;
    this.w = w;
  }
}
