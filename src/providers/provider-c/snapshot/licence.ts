// DATA-LICENSE.md of provider_c's snapshot: the MIT notice of ec2.shop's recording (the 2025
// on-demand and Reserved prices and the change log) and the CC BY-SA 4.0 notice of Spare Cores' recording (the
// 2024-02-21 prices in recordings.json and the GPU counts), which ships as long as that does.

export function licenceText(): string {
  return `# Data licence: provider_c snapshot

The files in this directory (\`data/snapshots/provider_c/\`) are generated from recorded AWS EC2
prices kept in \`data/sources/\`. They are separately licensed data files: the cloudprice source
code is not under these licences, and these licences do not extend to it.

## AWS EC2 prices of 2025-04-04 and the change log since 2024-07-05 (MIT)

\`aws-ap-linux-2025-04-04.csv\` (the offer files: the on-demand prices and the four No Upfront
Reserved prices, standard and convertible, 1 and 3 years) and
\`aws-ap-ondemand-history-2024-07-05_2025-04-04.csv\` (the later recordings in \`recordings.json\`)
hold AWS's website pricing JSON as recorded by ec2.shop.

Attribution: **AWS EC2 prices as recorded by ec2.shop (github.com/yeo/ec2.shop, MIT)**.
Source: https://github.com/yeo/ec2.shop, commits db9bd3e2 (2024-07-08) to
\`73696e380ae600b175f859850a726edebd1de72f\` (2025-04-05), \`data/ec2/<region>-ondemand.json\`,
\`-previousgen-ondemand.json\`, \`-reservedinstance-1y.json\`, \`-reservedinstance-3y.json\`,
\`-reservedinstance-convertible-1y.json\` and \`-reservedinstance-convertible-3y.json\`.

    MIT License

    Copyright (c) 2024 Vinh Nguyen

    Permission is hereby granted, free of charge, to any person obtaining a copy
    of this software and associated documentation files (the "Software"), to deal
    in the Software without restriction, including without limitation the rights
    to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
    copies of the Software, and to permit persons to whom the Software is
    furnished to do so, subject to the following conditions:

    The above copyright notice and this permission notice shall be included in all
    copies or substantial portions of the Software.

    THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
    IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
    FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
    AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
    LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
    OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
    SOFTWARE.

## The 2024-02-21 recording and GPU counts (CC BY-SA 4.0)

\`aws-ap-ondemand-linux-2024-02-21.csv\` (the first recording in \`recordings.json\`, and GPU
counts) holds AWS EC2 on-demand prices recorded from the AWS Price List API on
2024-02-21T08:20:21Z by Spare Cores; \`aws-specs-sc-2026-01.csv\` (GPU counts of types launched
since) is Spare Cores' spec dump of 2026-01-31.

Attribution: **Spare Cores (sc-data), CC BY-SA 4.0** and **Spare Cores (sc-data-dumps), CC BY-SA
4.0**. Sources: Spare Cores sc-data (https://github.com/SpareCores/sc-data), commit
\`ce414d8e9d6bb1faf6ce9407fedac0c1f25f587a\`, \`src/sc_data/data/sc-data-all.db\`; Spare Cores
sc-data-dumps (https://github.com/SpareCores/sc-data-dumps), commit
\`e8749bef991dfd1c531e84f09c2882945064a18d\`, \`data/server/aws/<type>.json\`.

These parts are licensed under the Creative Commons Attribution-ShareAlike 4.0 International
licence (https://creativecommons.org/licenses/by-sa/4.0/). If you redistribute them or data
derived from them, keep this notice and share the derived data under the same licence.

## Changes made

The recordings were converted into the AWS Price List offer-file layout and into cloudprice's
dated-recordings file (see \`metadata.json\`); every price is unchanged.
`;
}
