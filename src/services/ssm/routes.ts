/**
 * SSM Parameter Store on the wire: the json-1.1 codec (`X-Amz-Target: AmazonSSM.<Operation>`) and
 * the table of operations served, each pointing at its provider function.
 */
import { serviceModel } from '../../model/service-model.js';
import { jsonRpcCodec } from '../../wire/json-rpc.js';
import type { Handler, ServiceRoutes } from '../service-routes.js';
import * as listing from './listing.js';
import * as ssm from './provider.js';

const codec = jsonRpcCodec(() => serviceModel('ssm'), 'ValidationException');

const handlers: Partial<Record<string, Handler>> = {
  PutParameter: ssm.putParameter,
  GetParameter: ssm.getParameter,
  GetParameters: ssm.getParameters,
  DeleteParameter: ssm.deleteParameter,
  DeleteParameters: ssm.deleteParameters,
  LabelParameterVersion: ssm.labelParameterVersion,
  UnlabelParameterVersion: ssm.unlabelParameterVersion,
  AddTagsToResource: ssm.addTagsToResource,
  RemoveTagsFromResource: ssm.removeTagsFromResource,
  ListTagsForResource: ssm.listTagsForResource,
  GetParametersByPath: listing.getParametersByPath,
  DescribeParameters: listing.describeParameters,
  GetParameterHistory: listing.getParameterHistory,
};

export const routes: ServiceRoutes = { codec, handlers, internalErrorCode: 'InternalServerError' };
