/**
 * `Code.ZipFile` of `AWS::Lambda::Function`: CloudFormation writes the source into a file named
 * `index` — `index.js` for Node.js runtimes (so Node reads it as CommonJS), `index.py` for Python —
 * and zips it, adding the cfn-response module beside it (`cfn-response.js` / `cfnresponse.py`, whose
 * published sources these follow: `send(event, context, status, data, physicalId, noEcho)` PUTs the
 * response to the ResponseURL, the Node.js one with `https` on port 443 as AWS's does — Overcast's
 * workers send that to Overcast's own port). Other runtimes cannot take inline code.
 */
import { strToU8, zipSync } from 'fflate';
import { ResourceFailure } from '../types.js';

const CFN_RESPONSE_JS = `'use strict';
exports.SUCCESS = 'SUCCESS';
exports.FAILED = 'FAILED';
exports.send = function (event, context, responseStatus, responseData, physicalResourceId, noEcho) {
  return new Promise((resolve, reject) => {
    const responseBody = JSON.stringify({
      Status: responseStatus,
      Reason: 'See the details in CloudWatch Log Stream: ' + context.logStreamName,
      PhysicalResourceId: physicalResourceId || context.logStreamName,
      StackId: event.StackId,
      RequestId: event.RequestId,
      LogicalResourceId: event.LogicalResourceId,
      NoEcho: noEcho || false,
      Data: responseData,
    });
    console.log('Response body:\\n', responseBody);
    const https = require('https');
    const url = require('url');
    const parsedUrl = url.parse(event.ResponseURL);
    const options = {
      hostname: parsedUrl.hostname,
      port: 443,
      path: parsedUrl.path,
      method: 'PUT',
      headers: { 'content-type': '', 'content-length': Buffer.byteLength(responseBody) },
    };
    const request = https.request(options, function (response) {
      console.log('Status code: ' + parseInt(response.statusCode));
      resolve(context.done());
    });
    request.on('error', function (error) {
      console.log('send(..) failed executing https.request(..): ' + error);
      reject(context.done(error));
    });
    request.write(responseBody);
    request.end();
  });
};
`;

const CFN_RESPONSE_PY = `import json
import urllib3

SUCCESS = "SUCCESS"
FAILED = "FAILED"

http = urllib3.PoolManager()


def send(event, context, responseStatus, responseData, physicalResourceId=None, noEcho=False, reason=None):
    responseUrl = event['ResponseURL']
    responseBody = {
        'Status': responseStatus,
        'Reason': reason or "See the details in CloudWatch Log Stream: {}".format(context.log_stream_name),
        'PhysicalResourceId': physicalResourceId or context.log_stream_name,
        'StackId': event['StackId'],
        'RequestId': event['RequestId'],
        'LogicalResourceId': event['LogicalResourceId'],
        'NoEcho': noEcho,
        'Data': responseData,
    }
    json_responseBody = json.dumps(responseBody)
    print("Response body:")
    print(json_responseBody)
    headers = {'content-type': '', 'content-length': str(len(json_responseBody))}
    try:
        response = http.request('PUT', responseUrl, headers=headers, body=json_responseBody)
        print("Status code:", response.status)
    except Exception as e:
        print("send(..) failed executing http.request(..):", e)
`;

/** A fixed time for the entries, so the same source always gives the same CodeSha256. */
const MTIME = new Date('2000-01-01T00:00:00Z');

/** The zip CloudFormation makes of inline source for `runtime`. */
export function inlineZip(runtime: string | undefined, source: string): Buffer {
  if (runtime?.startsWith('nodejs')) {
    return Buffer.from(zipSync({ 'index.js': strToU8(source), 'cfn-response.js': strToU8(CFN_RESPONSE_JS) }, { mtime: MTIME }));
  }
  if (runtime?.startsWith('python')) {
    return Buffer.from(zipSync({ 'index.py': strToU8(source), 'cfnresponse.py': strToU8(CFN_RESPONSE_PY) }, { mtime: MTIME }));
  }
  throw new ResourceFailure(`ZipFile can only be used when Runtime is set to either of nodejs and python runtimes, not ${runtime ?? 'none'}`);
}
